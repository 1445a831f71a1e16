/**
 * Whether an error that is not a PipeworkError means that the database connection failed (refused, reset,
 * timed out, the server shutting down or out of connections, the database closed to connections), as opposed
 * to a bug. Such an error answers 503 UNAVAILABLE, to be retried, instead of 500 INTERNAL. The codes are
 * Node's socket errors and PostgreSQL's SQLSTATEs: class 08 (connection exception), 57P01-03 (shutdown, crash,
 * not yet accepting connections) and 53300 (too many connections).
 */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const LOST_CONNECTION =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)|is not currently accepting connections/;

export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (SOCKET_CODES.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code) || code === '53300') {
      return true;
    }
  }
  return LOST_CONNECTION.test(error.message);
}
