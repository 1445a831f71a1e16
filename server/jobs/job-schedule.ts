/**
 * A job's schedule: the real product's fixed schedule words (`EVERY_15_MIN`, `HOURLY`, ...) or a cron
 * expression, with an optional time zone, turned into the times the job is due. Cron is read by croner; the
 * words whose product meaning is "at a random time" get one derived from the pipeline key, so every instance
 * of an installation computes the same times (and the jobs of many pipelines spread out).
 */
import { createHash } from 'node:crypto';
import { Cron } from 'croner';
import { PipeworkError } from '../../shared/errors';

/** The fixed schedules; `EVERY_2_MIN` falls back to `EVERY_5_MIN` as in the real product. */
export const FIXED_SCHEDULES = [
  'EVERY_1_MIN',
  'EVERY_2_MIN',
  'EVERY_5_MIN',
  'EVERY_15_MIN',
  'EVERY_30_MIN',
  'EVERY_45_MIN',
  'HOURLY',
  'DAILY',
  'WEEKLY',
  'MONTHLY',
] as const;

export interface JobSchedule {
  /** As written: a fixed schedule word or the cron expression. */
  schedule: string;
  /** The cron expression the times come from (six fields, seconds first), or null for `EVERY_45_MIN`. */
  cron: string | null;
  /** The IANA time zone cron fields are read in. */
  timeZone: string;
  /** The first due time strictly after `after` (epoch ms). */
  nextAfter(after: number): number;
}

const MINUTE = 60_000;

/** A number in [0, n) derived from the key and a salt: "random", but the same on every instance. */
function spread(key: string, salt: string, n: number): number {
  const digest = createHash('sha256').update(`${salt}:${key}`).digest();
  return digest.readUInt32BE(0) % n;
}

function fixedCron(word: string, key: string): string | null {
  const second = spread(key, 's', 60);
  const minute = spread(key, 'm', 60);
  const hour = 2 + spread(key, 'h', 2); // between 2 and 4 in the morning
  switch (word) {
    case 'EVERY_1_MIN':
      return '0 * * * * *';
    case 'EVERY_2_MIN':
    case 'EVERY_5_MIN':
      return '0 */5 * * * *';
    case 'EVERY_15_MIN':
      return '0 */15 * * * *';
    case 'EVERY_30_MIN':
      return '0 */30 * * * *';
    case 'EVERY_45_MIN':
      return null; // not a cron pattern: every 45 minutes counted from the epoch
    case 'HOURLY':
      return `${second} ${minute} * * * *`;
    case 'DAILY':
      return `${second} ${minute} ${hour} * * *`;
    case 'WEEKLY':
      return `${second} ${minute} ${hour} * * ${spread(key, 'd', 7)}`;
    default: // MONTHLY
      return `${second} ${minute} ${hour} ${1 + spread(key, 'd', 28)} * *`;
  }
}

function invalid(message: string, parameter: string): PipeworkError {
  return new PipeworkError('PARAM_INVALID', message, { commandName: 'job', parameter });
}

function checkTimeZone(timeZone: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    throw invalid(`'${timeZone}' is not a time zone (use an IANA name such as Europe/Berlin).`, 'timeZone');
  }
}

/**
 * Reads a schedule for the pipeline `key`. A cron expression has five fields (minute first) or six (second
 * first, a plain number: a job runs at most once a minute); `?` is accepted as in the real product's crons.
 */
export function parseJobSchedule(schedule: string, key: string, timeZone = 'UTC'): JobSchedule {
  checkTimeZone(timeZone);
  const text = schedule.trim();
  const word = text.toUpperCase();
  if ((FIXED_SCHEDULES as readonly string[]).includes(word)) {
    const cron = fixedCron(word, key);
    if (cron === null) {
      const period = 45 * MINUTE;
      return {
        schedule: word,
        cron,
        timeZone,
        nextAfter: (after) => (Math.floor(after / period) + 1) * period,
      };
    }
    return cronSchedule(word, cron, timeZone);
  }
  const fields = text.split(/\s+/);
  if (fields.length < 5 || fields.length > 6) {
    throw invalid(
      `'${schedule}' is neither a schedule (${FIXED_SCHEDULES.join(', ')}) nor a cron expression of 5 or 6 fields.`,
      'schedule',
    );
  }
  if (fields.length === 6 && !/^\d{1,2}$/.test(fields[0]!)) {
    throw invalid(
      `The seconds field of '${schedule}' must be one number: a job runs at most once a minute.`,
      'schedule',
    );
  }
  return cronSchedule(text, fields.length === 5 ? `0 ${text}` : text, timeZone);
}

function cronSchedule(schedule: string, cron: string, timeZone: string): JobSchedule {
  let pattern: Cron;
  try {
    pattern = new Cron(cron, { timezone: timeZone, paused: true });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw invalid(`'${schedule}' is not a valid cron expression: ${reason}`, 'schedule');
  }
  if (pattern.nextRun() === null) {
    throw invalid(`'${schedule}' never comes due.`, 'schedule');
  }
  return {
    schedule,
    cron,
    timeZone,
    nextAfter(after) {
      const next = pattern.nextRun(new Date(after));
      return next ? next.getTime() : Number.POSITIVE_INFINITY;
    },
  };
}
