/** The Node.js options the server runs with (`server-node-options.mjs`). */
export declare const SERVER_NODE_OPTIONS: readonly string[];
