// Starts the sync-bridge worker from its TypeScript source (vitest, `tsx` runs): tsx compiles it on import.
// The bundled server (`npm start`) runs dist/server/postgres-sync-worker.mjs instead (scripts/build-server.mjs).
import { tsImport } from 'tsx/esm/api';

await tsImport('./sync-bridge-worker.ts', import.meta.url);
