/** The structured (JSON) logger every server module writes to. */
import pino from 'pino';
import type { RecentLogs } from './recent-logs';

export type Logger = pino.Logger;

/** Fields never written to the log: credentials wherever they appear in a logged object. */
const REDACTED_PATHS = [
  'password',
  '*.password',
  'authorization',
  '*.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
  'token',
  '*.token',
  'refreshToken',
  '*.refreshToken',
  'apitoken',
  '*.apitoken',
];

/**
 * The server's logger: JSON lines to `destination` (stdout by default) and, when given, to `recent` too
 * (the buffer behind `log.list`).
 */
export function createLogger(
  level: string,
  destination?: pino.DestinationStream,
  recent?: RecentLogs,
): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
  };
  if (!recent) return pino(options, destination);
  const streams: pino.StreamEntry[] = [
    { stream: destination ?? pino.destination(1), level: level as pino.Level },
    { stream: recent, level: level as pino.Level },
  ];
  return pino(options, pino.multistream(streams));
}

/** A logger that drops everything (tests that do not look at logs). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
