/** Settings of outbound HTTP (the http.* commands): which non-public addresses are allowed, timeouts and sizes. */

import { nonNegativeIntFrom } from '../config-env';

export interface HttpClientConfig {
  /** `PIPEWORK_HTTP_ALLOW_PRIVATE=true`: loopback, private, link-local and CGNAT addresses may be called (cloud metadata still not, unless listed). */
  allowPrivate: boolean;
  /** `PIPEWORK_HTTP_ALLOW_HOSTS`: host names, addresses or CIDR ranges (comma-separated) allowed although not public. */
  allowHosts: string[];
  /** Default and largest time for one call including redirects (`PIPEWORK_HTTP_TIMEOUT_MILLIS`). */
  timeoutMillis: number;
  /** Largest response body (`PIPEWORK_HTTP_MAX_RESPONSE`, bytes). */
  maxResponseBytes: number;
  /** Redirects followed before the call fails (`PIPEWORK_HTTP_MAX_REDIRECTS`). */
  maxRedirects: number;
}

export function loadHttpClientConfig(env: NodeJS.ProcessEnv): HttpClientConfig {
  return {
    allowPrivate: /^(true|1|yes)$/i.test(env.PIPEWORK_HTTP_ALLOW_PRIVATE ?? ''),
    allowHosts: (env.PIPEWORK_HTTP_ALLOW_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter((h) => h !== ''),
    timeoutMillis: nonNegativeIntFrom(env, 'PIPEWORK_HTTP_TIMEOUT_MILLIS', 30_000),
    maxResponseBytes: nonNegativeIntFrom(env, 'PIPEWORK_HTTP_MAX_RESPONSE', 10 * 1024 * 1024),
    maxRedirects: nonNegativeIntFrom(env, 'PIPEWORK_HTTP_MAX_REDIRECTS', 5),
  };
}
