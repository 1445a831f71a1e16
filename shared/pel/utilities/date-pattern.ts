/** Java DateTimeFormatter patterns (yyyy-MM-dd HH:mm:ss.SSS, EEE, MMM, a, XXX, 'text') over epoch milliseconds. */
import { utilityError } from '../errors';
import { DEFAULT_PEL_LIMITS } from '../limits';
import { regexGroups } from '../regex';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The calendar fields of an instant in a time zone, and the zone's offset from UTC at that instant. */
export interface DateFields {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  weekday: number; // 0 = Sunday
  offsetMinutes: number;
  zone: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      throw utilityError(`unknown time zone '${zone}'`);
    }
    formatters.set(zone, f);
  }
  return f;
}

/** The offset of a zone from UTC at an instant, in minutes (UTC and fixed offsets without Intl). */
export function zoneOffsetMinutes(epochMs: number, zone: string): number {
  if (zone === 'UTC' || zone === 'Z' || zone === 'GMT') return 0;
  const fixed = /^(?:UTC|GMT)?([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (fixed) return (fixed[1] === '-' ? -1 : 1) * (Number(fixed[2]) * 60 + Number(fixed[3]));
  const parts: Record<string, number> = {};
  for (const p of formatterFor(zone).formatToParts(new Date(epochMs))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const asUtc = Date.UTC(
    parts.year!,
    parts.month! - 1,
    parts.day!,
    parts.hour!,
    parts.minute!,
    parts.second!,
  );
  return Math.round((asUtc - (epochMs - (((epochMs % 1000) + 1000) % 1000))) / 60000);
}

export function fieldsOf(epochMs: number, zone: string): DateFields {
  // JavaScript dates end 8.64e15 ms from 1970; past that (or with the zone's offset added) every field is NaN.
  if (!(Math.abs(epochMs) <= 8.64e15 - 86_400_000)) throw utilityError('not a valid date (out of range)');
  const offsetMinutes = zoneOffsetMinutes(epochMs, zone);
  const d = new Date(epochMs + offsetMinutes * 60000);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    millisecond: d.getUTCMilliseconds(),
    weekday: d.getUTCDay(),
    offsetMinutes,
    zone,
  };
}

type PatternPart = { letter: string; count: number } | { literal: string };

const patterns = new Map<string, PatternPart[]>();

/** Splits a Java pattern into letter runs and literals ('quoted', '' for a quote, other symbols as is). */
export function parsePattern(pattern: string): PatternPart[] {
  const cached = patterns.get(pattern);
  if (cached) return cached;
  const parts: PatternPart[] = [];
  for (let i = 0; i < pattern.length;) {
    const c = pattern[i]!;
    if (c === "'") {
      if (pattern[i + 1] === "'") {
        parts.push({ literal: "'" });
        i += 2;
        continue;
      }
      let j = i + 1;
      let lit = '';
      for (; j < pattern.length; j++) {
        if (pattern[j] === "'") {
          if (pattern[j + 1] === "'") {
            lit += "'";
            j++;
          } else break;
        } else lit += pattern[j];
      }
      if (j >= pattern.length) throw utilityError(`unterminated quote in date pattern '${pattern}'`);
      parts.push({ literal: lit });
      i = j + 1;
    } else if (/[A-Za-z]/.test(c)) {
      let j = i;
      while (pattern[j] === c) j++;
      if (!'yuMLdDHhkKmsSaEeXxZzVG'.includes(c))
        throw utilityError(`unknown pattern letter '${c}' in '${pattern}'`);
      parts.push({ letter: c, count: j - i });
      i = j;
    } else {
      parts.push({ literal: c });
      i++;
    }
  }
  if (patterns.size > 500) patterns.clear();
  if (pattern.length <= 200) patterns.set(pattern, parts);
  return parts;
}

function pad(n: number, width: number): string {
  const s = String(Math.abs(n)).padStart(width, '0');
  return n < 0 ? `-${s}` : s;
}

function offsetText(minutes: number, colon: boolean, zForZero: boolean, withMinutes = true): string {
  if (minutes === 0 && zForZero) return 'Z';
  const sign = minutes < 0 ? '-' : '+';
  const m = Math.abs(minutes);
  const hh = pad(Math.floor(m / 60), 2);
  if (!withMinutes && m % 60 === 0) return sign + hh;
  return sign + hh + (colon ? ':' : '') + pad(m % 60, 2);
}

function formatPart(f: DateFields, letter: string, count: number): string {
  switch (letter) {
    case 'y':
    case 'u':
      return count === 2 ? pad(f.year % 100, 2) : pad(f.year, count);
    case 'M':
    case 'L':
      if (count >= 4) return MONTHS[f.month - 1]!;
      if (count === 3) return MONTHS[f.month - 1]!.slice(0, 3);
      return pad(f.month, count);
    case 'd':
      return pad(f.day, count);
    case 'D': {
      const start = Date.UTC(f.year, 0, 1);
      return pad(Math.floor((Date.UTC(f.year, f.month - 1, f.day) - start) / 86400000) + 1, count);
    }
    case 'H':
      return pad(f.hour, count);
    case 'k':
      return pad(f.hour === 0 ? 24 : f.hour, count);
    case 'h':
      return pad(f.hour % 12 === 0 ? 12 : f.hour % 12, count);
    case 'K':
      return pad(f.hour % 12, count);
    case 'm':
      return pad(f.minute, count);
    case 's':
      return pad(f.second, count);
    case 'S':
      return pad(f.millisecond, 3).padEnd(count, '0').slice(0, count);
    case 'a':
      return f.hour < 12 ? 'AM' : 'PM';
    case 'E':
    case 'e':
      return count >= 4 ? DAYS[f.weekday]! : DAYS[f.weekday]!.slice(0, 3);
    case 'G':
      return 'AD';
    case 'X':
      return offsetText(f.offsetMinutes, count >= 3, true, count !== 1);
    case 'x':
      return offsetText(f.offsetMinutes, count >= 3, false, count !== 1);
    case 'Z':
      return count >= 4
        ? `GMT${offsetText(f.offsetMinutes, true, false)}`
        : offsetText(f.offsetMinutes, false, false);
    default: // z, V: the zone's name
      return f.zone;
  }
}

/** Formats an instant with a Java pattern in a time zone. */
export function formatDate(epochMs: number, pattern: string, zone: string): string {
  const f = fieldsOf(epochMs, zone);
  let out = '';
  for (const p of parsePattern(pattern)) out += 'literal' in p ? p.literal : formatPart(f, p.letter, p.count);
  return out;
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Parses text written in a Java pattern; fields not in the pattern default to 1970-01-01 00:00:00.000. */
export function parseDate(textValue: string, pattern: string, zone: string): number {
  const parts = parsePattern(pattern);
  const fields: string[] = [];
  let source = '';
  for (const p of parts) {
    if ('literal' in p) {
      source += escapeRegex(p.literal);
      continue;
    }
    fields.push(p.letter);
    if ('yu'.includes(p.letter)) source += p.count === 2 ? '(\\d{2})' : '([+-]?\\d{1,9})';
    else if ('ML'.includes(p.letter) && p.count >= 3) source += '([A-Za-z]+)';
    else if ('Ee'.includes(p.letter)) source += '([A-Za-z]+)';
    else if (p.letter === 'a') source += '(AM|PM|am|pm)';
    else if (p.letter === 'S') source += `(\\d{${p.count}})`;
    else if ('XxZ'.includes(p.letter)) source += '(Z|[+-]\\d{2}(?::?\\d{2})?)';
    else if ('zVG'.includes(p.letter)) source += '([A-Za-z_/+-]+)';
    else source += p.count === 1 ? '(\\d{1,2})' : `(\\d{${p.count}})`;
  }
  // Our linear regular-expression engine: adjacent variable-width fields (`dHdH...`) would make a
  // backtracking one exponential.
  const groups = regexGroups(source, textValue, DEFAULT_PEL_LIMITS.matchesTimeoutMs);
  if (!groups) throw utilityError(`'${textValue}' does not match the date pattern '${pattern}'`);
  let year = 1970;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let ms = 0;
  let pm: boolean | null = null;
  let offset: number | null = null;
  fields.forEach((letter, i) => {
    const v = groups[i]!;
    switch (letter) {
      case 'y':
      case 'u':
        year = v.length === 2 ? 2000 + Number(v) : Number(v);
        break;
      case 'M':
      case 'L': {
        if (/^\d+$/.test(v)) month = Number(v);
        else {
          const idx = MONTHS.findIndex((n) => n.toLowerCase().startsWith(v.toLowerCase()) && v.length >= 3);
          if (idx < 0) throw utilityError(`unknown month '${v}'`);
          month = idx + 1;
        }
        break;
      }
      case 'd':
        day = Number(v);
        break;
      case 'H':
      case 'k':
        hour = Number(v) % 24;
        break;
      case 'h':
      case 'K':
        hour = Number(v) % 12;
        break;
      case 'm':
        minute = Number(v);
        break;
      case 's':
        second = Number(v);
        break;
      case 'S':
        ms = Math.round(Number(`0.${v}`) * 1000);
        break;
      case 'a':
        pm = v.toUpperCase() === 'PM';
        break;
      case 'X':
      case 'x':
      case 'Z':
        offset = v === 'Z' ? 0 : zoneOffsetMinutes(0, v.length === 3 ? `${v}00` : v);
        break;
      default:
        break;
    }
  });
  if (pm !== null && pm && hour < 12) hour += 12;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) {
    throw utilityError(`'${textValue}' is not a valid date`);
  }
  const local = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  if (new Date(local).getUTCDate() !== day) throw utilityError(`'${textValue}' is not a valid date`);
  if (offset !== null) return local - offset * 60000;
  // A named zone: its offset at the instant itself (checked twice around transitions).
  let guess = local - zoneOffsetMinutes(local, zone) * 60000;
  guess = local - zoneOffsetMinutes(guess, zone) * 60000;
  return guess;
}
