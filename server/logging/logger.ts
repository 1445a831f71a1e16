/** The structured (JSON) logger every server module writes to. */
import pino from 'pino';

export type Logger = pino.Logger;

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}

/** A logger that drops everything (tests that do not look at logs). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
