/** `@date`: now, timestamps, Java-pattern formatting and parsing, arithmetic; instants are epoch milliseconds. */
import { utilityError } from '../errors';
import { guessDate } from './date-guess';
import { formatDate, parseDate } from './date-pattern';
import { type UtilitySpec, int, num, optionalInt, optionalText, text } from './support';

const UNITS: Record<string, number> = {
  millis: 1,
  milliseconds: 1,
  seconds: 1000,
  minutes: 60_000,
  hours: 3_600_000,
  days: 86_400_000,
  weeks: 604_800_000,
};

/**
 * An instant from a PEL value: epoch milliseconds, an ISO-8601 text (a text without zone is UTC), or the
 * default form of `@date.now()` (UTC).
 */
export function toEpochMillis(fn: string, v: unknown): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string') {
    // What @date.now() gives reads back: @date.format(@date.now(), 'yyyy').
    const d = DEFAULT_FORM.exec(v);
    if (d) return Date.UTC(+d[3]!, +d[2]! - 1, +d[1]!, +d[4]!, +d[5]!, +d[6]!);
    const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(v) ? `${v}Z` : v;
    const t = Date.parse(iso);
    if (Number.isFinite(t)) return t;
    throw utilityError(`${fn}: '${v}' is not an ISO-8601 date`);
  }
  throw utilityError(`${fn}: expected a date (epoch milliseconds or ISO-8601 text)`);
}

/** A zone argument (IANA name, UTC or an offset), told apart from a pattern by its form. */
function looksLikeZone(v: unknown): boolean {
  return typeof v === 'string' && /^(UTC|GMT|Z|[A-Za-z]+\/[A-Za-z0-9_+\-/]+|[+-]\d{2}:?\d{2})$/.test(v);
}

/** A date argument for the real product's functions: epoch millis, ISO text, or a text in a common form. */
function dateOf(fn: string, v: unknown): number {
  if (typeof v === 'string') {
    const guessed = guessDate(v);
    if (guessed !== null) return guessed;
  }
  return toEpochMillis(fn, v);
}

/**
 * The form the real product gives a date in where no pattern is asked for (`@date.now()`), as its tutorials
 * show ('16.01.2022 08:54:17'); in UTC, the zone of the server.
 */
export const DEFAULT_DATE_PATTERN = 'dd.MM.yyyy HH:mm:ss';
const DEFAULT_FORM = /^(\d{2})\.(\d{2})\.(\d{4}) (\d{2}):(\d{2}):(\d{2})$/;

const DAY = 86_400_000;
const WEEKDAYS = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'];

/** The day a week starts on, 0 (Sunday) to 6: a name ('MONDAY', 'mon') or ISO's number (1 Monday ... 7 Sunday). */
function weekday(fn: string, v: unknown): number {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 7) return v % 7;
  const name = typeof v === 'string' ? v.trim().toUpperCase() : '';
  const i = name.length >= 2 ? WEEKDAYS.findIndex((d) => d.startsWith(name)) : -1;
  if (i < 0) throw utilityError(`${fn}: '${String(v)}' is not a week day (MONDAY ... SUNDAY, or 1 ... 7)`);
  return i;
}

/** The start (UTC) of the year, month or day of `epoch`, moved by `offset` such periods. */
function beginOf(unit: 'year' | 'month' | 'day', epoch: number, offset: number): number {
  const d = new Date(epoch);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const result =
    unit === 'year'
      ? Date.UTC(y + offset, 0, 1)
      : unit === 'month'
        ? Date.UTC(y, m + offset, 1)
        : Date.UTC(y, m, d.getUTCDate() + offset);
  if (!Number.isFinite(result) || Math.abs(result) > 8.64e15) throw utilityError('the date is out of range');
  return result;
}

/** `beginOfX(offset)` or `beginOfX(timestamp, offset)`: epoch milliseconds. */
function beginOfCall(fn: string, unit: 'year' | 'month' | 'day', a: unknown[]): number {
  if (a.length >= 2) return beginOf(unit, dateOf(fn, a[0]), optionalInt(fn, a, 1, 0));
  return beginOf(unit, Date.now(), optionalInt(fn, a, 0, 0));
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
      signature: 'now()',
      overloads: ['now(format)', 'now(zoneId, locale)'],
      doc: "The current time as the real product gives it: 'dd.MM.yyyy HH:mm:ss' in UTC ('16.01.2022 08:54:17'); formatted with a Java pattern, e.g. @date.now('yyyy-MM-dd HH:mm'); or in the default form in a zone, @date.now('Europe/Berlin', 'de') (a pattern and a zone also work: now(format, zoneId)). ISO-8601: @date.nowIso8601().",
      fn: (...a) => {
        const now = Date.now();
        if (a[0] === undefined || a[0] === null) return formatDate(now, DEFAULT_DATE_PATTERN, 'UTC');
        if (looksLikeZone(a[0])) return formatDate(now, DEFAULT_DATE_PATTERN, text('now', a, 0));
        return formatDate(now, text('now', a, 0), looksLikeZone(a[1]) ? text('now', a, 1) : 'UTC');
      },
    },
    nowIso8601: {
      signature: 'nowIso8601()',
      doc: "The current time as ISO-8601 text in UTC ('2024-07-01T11:45:00.000Z').",
      fn: () => new Date().toISOString(),
    },
    guessAndFormat: {
      signature: 'guessAndFormat(dateTimeString, outputFormat)',
      doc: "A date written in a common form (ISO-8601, '01.02.2024', '02/01/2024', '1 February 2024', ...) formatted with a Java pattern: @date.guessAndFormat('1 February 2024', 'yyyy-MM-dd') is '2024-02-01'; null when it cannot be read.",
      fn: (...a) => {
        const s = a[0];
        if (s === null || s === undefined) return null;
        const ms = typeof s === 'number' ? s : guessDate(text('guessAndFormat', a, 0));
        return ms === null ? null : formatDate(ms, text('guessAndFormat', a, 1), 'UTC');
      },
    },
    parseToInstant: {
      signature: 'parseToInstant(dateTime)',
      doc: 'The instant (epoch milliseconds) of a date-time in ISO-8601 or a common form; null for null.',
      fn: (...a) => (a[0] === null || a[0] === undefined ? null : dateOf('parseToInstant', a[0])),
    },
    year: {
      signature: 'year(dateString)',
      doc: "The year (UTC) of a date: @date.year('2024-07-01') is 2024.",
      fn: (...a) =>
        a[0] === null || a[0] === undefined ? null : new Date(dateOf('year', a[0])).getUTCFullYear(),
    },
    isExpired: {
      signature: 'isExpired(iso8601Start, iso8601End, expiredInPercents)',
      overloads: ['isExpired(iso8601Start, iso8601End, expiredInPercents, currentDate)'],
      doc: 'True when at least expiredInPercents of the time from start to end has passed (by now, or by currentDate).',
      fn: (...a) => {
        const start = dateOf('isExpired', a[0]);
        const end = dateOf('isExpired', a[1]);
        const percent = num('isExpired', a, 2);
        const current = a[3] === undefined || a[3] === null ? Date.now() : dateOf('isExpired', a[3]);
        if (end <= start) return current >= end;
        return ((current - start) / (end - start)) * 100 >= percent;
      },
    },
    isOverdue: {
      signature: 'isOverdue(dueDate, currentDate)',
      overloads: ['isOverdue(dueDate)'],
      doc: 'True when the due date has passed (by now, or by currentDate); false for a null due date.',
      fn: (...a) => {
        if (a[0] === null || a[0] === undefined) return false;
        const current = a[1] === undefined || a[1] === null ? Date.now() : dateOf('isOverdue', a[1]);
        return current > dateOf('isOverdue', a[0]);
      },
    },
    beginOfYear: {
      signature: 'beginOfYear(yearOffset)',
      overloads: ['beginOfYear(timestamp, yearOffset)'],
      doc: 'The start (UTC, epoch milliseconds) of this year, or of the timestamp’s, moved by yearOffset years.',
      fn: (...a) => beginOfCall('beginOfYear', 'year', a),
    },
    beginOfMonth: {
      signature: 'beginOfMonth(monthOffset)',
      overloads: ['beginOfMonth(timestamp, monthOffset)'],
      doc: 'The start (UTC, epoch milliseconds) of this month, or of the timestamp’s, moved by monthOffset months.',
      fn: (...a) => beginOfCall('beginOfMonth', 'month', a),
    },
    beginOfWeek: {
      signature: 'beginOfWeek(weekStartDay, weekOffset)',
      overloads: ['beginOfWeek(timestamp, weekStartDay, weekOffset)'],
      doc: "The start (UTC, epoch milliseconds) of this week, or of the timestamp’s, with weeks starting on weekStartDay ('MONDAY' or 1 ... 7), moved by weekOffset weeks.",
      fn: (...a) => {
        const [epoch, startDay, offset] =
          a.length >= 3
            ? [dateOf('beginOfWeek', a[0]), a[1], optionalInt('beginOfWeek', a, 2, 0)]
            : [Date.now(), a[0], optionalInt('beginOfWeek', a, 1, 0)];
        const day = beginOf('day', epoch, 0);
        const back = (new Date(day).getUTCDay() - weekday('beginOfWeek', startDay ?? 'MONDAY') + 7) % 7;
        return day - back * DAY + offset * 7 * DAY;
      },
    },
    beginOfDay: {
      signature: 'beginOfDay(dayOffset)',
      overloads: ['beginOfDay(timestamp, dayOffset)'],
      doc: 'The start (UTC, epoch milliseconds) of today, or of the timestamp’s day, moved by dayOffset days.',
      fn: (...a) => beginOfCall('beginOfDay', 'day', a),
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
      signature: 'format(inputDate, inputFormat, outputFormat)',
      overloads: [
        'format(iso8601Date, format)',
        'format(timestamp, format)',
        'format(date, format, timeZone)',
      ],
      doc: "Formats a date with a Java pattern: epoch milliseconds or ISO text with (format) or (format, timeZone), e.g. @date.format(0, 'yyyy-MM-dd') is '1970-01-01'; or text in inputFormat re-written in outputFormat: @date.format('01.02.2024', 'dd.MM.yyyy', 'yyyy-MM-dd') is '2024-02-01'. Null stays null.",
      fn: (...a) => {
        if (a[0] === null || a[0] === undefined) return null;
        if (a.length >= 3 && !looksLikeZone(a[2])) {
          const ms = parseDate(text('format', a, 0), text('format', a, 1), 'UTC');
          return formatDate(ms, text('format', a, 2), 'UTC');
        }
        return formatDate(
          toEpochMillis('format', a[0]),
          text('format', a, 1),
          optionalText('format', a, 2, 'UTC'),
        );
      },
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
