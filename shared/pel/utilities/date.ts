/** `@date`: now, timestamps, Java-pattern formatting and parsing, arithmetic; instants are epoch milliseconds. */
import { utilityError } from '../errors';
import { formatDate, parseDate } from './date-pattern';
import { type UtilitySpec, int, num, optionalText, text } from './support';

const UNITS: Record<string, number> = {
  millis: 1,
  milliseconds: 1,
  seconds: 1000,
  minutes: 60_000,
  hours: 3_600_000,
  days: 86_400_000,
  weeks: 604_800_000,
};

/** An instant from a PEL value: epoch milliseconds, or an ISO-8601 text (a text without zone is UTC). */
export function toEpochMillis(fn: string, v: unknown): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string') {
    const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(v) ? `${v}Z` : v;
    const t = Date.parse(iso);
    if (Number.isFinite(t)) return t;
    throw utilityError(`${fn}: '${v}' is not an ISO-8601 date`);
  }
  throw utilityError(`${fn}: expected a date (epoch milliseconds or ISO-8601 text)`);
}

function unitOf(fn: string, args: unknown[], i: number): number {
  const name = optionalText(fn, args, i, 'millis').toLowerCase();
  const size = UNITS[name] ?? UNITS[`${name}s`];
  if (size === undefined && name !== 'months' && name !== 'month' && name !== 'years' && name !== 'year') {
    throw utilityError(
      `${fn}: unknown unit '${name}' (millis, seconds, minutes, hours, days, weeks, months, years)`,
    );
  }
  return size ?? 0;
}

function addCalendar(epoch: number, amount: number, unit: string): number {
  const d = new Date(epoch);
  const months = unit.startsWith('year') ? amount * 12 : amount;
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, lastDay));
  return d.getTime();
}

export const dateUtility: UtilitySpec = {
  name: 'date',
  doc: 'Dates and times. Instants are epoch milliseconds; patterns are Java DateTimeFormatter patterns; the zone defaults to UTC.',
  functions: {
    now: {
      signature: 'now(pattern?, timeZone?)',
      doc: "The current time: ISO-8601 text (UTC), or formatted with a pattern, e.g. @date.now('dd.MM.yyyy HH:mm').",
      fn: (...a) => {
        const now = Date.now();
        return a[0] === undefined || a[0] === null
          ? new Date(now).toISOString()
          : formatDate(now, text('now', a, 0), optionalText('now', a, 1, 'UTC'));
      },
    },
    timestamp: {
      signature: 'timestamp()',
      doc: 'The current time in epoch milliseconds.',
      fn: () => Date.now(),
    },
    today: {
      signature: 'today(pattern?, timeZone?)',
      doc: "Today's date, as yyyy-MM-dd or in a pattern.",
      fn: (...a) =>
        formatDate(Date.now(), optionalText('today', a, 0, 'yyyy-MM-dd'), optionalText('today', a, 1, 'UTC')),
    },
    format: {
      signature: 'format(date, pattern, timeZone?)',
      doc: "Formats epoch milliseconds or ISO text with a Java pattern: @date.format(0, 'yyyy-MM-dd') is '1970-01-01'.",
      fn: (...a) =>
        formatDate(toEpochMillis('format', a[0]), text('format', a, 1), optionalText('format', a, 2, 'UTC')),
    },
    parse: {
      signature: 'parse(text, pattern?, timeZone?)',
      doc: "Parses ISO-8601 text, or text in a Java pattern, to epoch milliseconds: @date.parse('01.02.2024', 'dd.MM.yyyy').",
      fn: (...a) =>
        a[1] === undefined || a[1] === null
          ? toEpochMillis('parse', text('parse', a, 0))
          : parseDate(text('parse', a, 0), text('parse', a, 1), optionalText('parse', a, 2, 'UTC')),
    },
    iso: {
      signature: 'iso(date)',
      doc: 'ISO-8601 text (UTC) of epoch milliseconds or a parseable text.',
      fn: (...a) => new Date(toEpochMillis('iso', a[0])).toISOString(),
    },
    add: {
      signature: 'add(date, amount, unit)',
      doc: 'Adds an amount of millis, seconds, minutes, hours, days, weeks, months or years; returns epoch milliseconds.',
      fn: (...a) => {
        const epoch = toEpochMillis('add', a[0]);
        const amount = int('add', a, 1);
        const size = unitOf('add', a, 2);
        const result =
          size === 0 ? addCalendar(epoch, amount, text('add', a, 2).toLowerCase()) : epoch + amount * size;
        if (!(Math.abs(result) <= 8.64e15)) throw utilityError('add: the date is out of range');
        return result;
      },
    },
    diff: {
      signature: 'diff(from, to, unit?)',
      doc: 'The time from one date to another, in whole units (default millis).',
      fn: (...a) => {
        const size = unitOf('diff', a, 2);
        if (size === 0) throw utilityError('diff: use days or weeks rather than months or years');
        return Math.trunc((toEpochMillis('diff', a[1]) - toEpochMillis('diff', a[0])) / size);
      },
    },
    isBefore: {
      signature: 'isBefore(date, other)',
      doc: 'True when the first date is earlier.',
      fn: (...a) => toEpochMillis('isBefore', a[0]) < toEpochMillis('isBefore', a[1]),
    },
    isAfter: {
      signature: 'isAfter(date, other)',
      doc: 'True when the first date is later.',
      fn: (...a) => toEpochMillis('isAfter', a[0]) > toEpochMillis('isAfter', a[1]),
    },
    fromSeconds: {
      signature: 'fromSeconds(epochSeconds)',
      doc: 'Epoch seconds to epoch milliseconds.',
      fn: (...a) => num('fromSeconds', a, 0) * 1000,
    },
  },
};
