/**
 * Java `DateTimeFormatter` patterns (`yyyy-MM-dd HH:mm:ss.SSS`, `YYYY` week-year, `ww`, `u`, `EEE`, `MMM`, `a`,
 * `XXX`, `'text'`, ...) over epoch milliseconds, through js-joda, the port of `java.time`: the same letters,
 * the same meanings, English (US) names, time zones from its tz database. A pattern with a letter Java does not
 * know is an error naming the letter.
 */
import type { DateTimeFormatter } from '@js-joda/core';
import {
  ChronoField,
  DateTimeFormatterBuilder,
  Instant,
  LocalDate,
  LocalDateTime,
  LocalTime,
  ParsePosition,
  TemporalQueries,
  ZoneId,
  ZonedDateTime,
  type TemporalAccessor,
} from '@js-joda/core';
import '@js-joda/timezone';
import '@js-joda/locale_en-us';
import * as jodaLocale from '@js-joda/locale';
import { utilityError } from '../errors';

/**
 * The module is CommonJS for Node and ESM for bundlers: `Locale` is a named export in one, under default in the
 * other. `default` is read with Reflect so that the bundlers, which know it is absent there, do not warn.
 */
const { Locale } = (
  (jodaLocale as { Locale?: unknown }).Locale ? jodaLocale : Reflect.get(jodaLocale, 'default')
) as typeof jodaLocale;

/** The instants JavaScript dates cover; past them a date is refused rather than shown in another calendar. */
const MAX_EPOCH_MS = 8.64e15;

const formatters = new Map<string, DateTimeFormatter>();
const zones = new Map<string, ZoneId>();

/** The message of a js-joda error without its stack-like tail. */
function reason(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 300);
}

/** The formatter of a pattern (cached); an unknown letter or a broken quote is an error naming it. */
export function formatterOf(pattern: string): DateTimeFormatter {
  let formatter = formatters.get(pattern);
  if (formatter) return formatter;
  try {
    formatter = new DateTimeFormatterBuilder()
      .parseCaseInsensitive()
      .appendPattern(pattern)
      .toFormatter()
      .withLocale(Locale.US);
  } catch (error) {
    const message = reason(error);
    const letter = /pattern letter:?\s*'?(\S)'?/i.exec(message)?.[1];
    throw utilityError(
      letter
        ? `unknown pattern letter '${letter}' in the date pattern '${pattern}'`
        : `the date pattern '${pattern}' is not valid: ${message}`,
    );
  }
  if (formatters.size > 500) formatters.clear();
  if (pattern.length <= 200) formatters.set(pattern, formatter);
  return formatter;
}

/** Checks a pattern without using it (for `pipeline.validate`): the message, or null when it is valid. */
export function datePatternProblem(pattern: string): string | null {
  try {
    formatterOf(pattern);
    return null;
  } catch (error) {
    return reason(error);
  }
}

function zoneOf(zone: string): ZoneId {
  let id = zones.get(zone);
  if (id) return id;
  try {
    id = ZoneId.of(zone);
  } catch {
    throw utilityError(`unknown time zone '${zone}'`);
  }
  if (zones.size < 1000) zones.set(zone, id);
  return id;
}

/** Formats an instant with a Java pattern in a time zone. */
export function formatDate(epochMs: number, pattern: string, zone: string): string {
  const formatter = formatterOf(pattern);
  if (!(Math.abs(epochMs) < MAX_EPOCH_MS))
    throw utilityError(`${String(epochMs)} is outside the dates that can be formatted (±8.64e15 ms)`);
  const at = ZonedDateTime.ofInstant(Instant.ofEpochMilli(Math.trunc(epochMs)), zoneOf(zone));
  try {
    return at.format(formatter);
  } catch (error) {
    throw utilityError(`the date pattern '${pattern}' cannot format this date: ${reason(error)}`);
  }
}

function field(parsed: TemporalAccessor, name: ChronoField, fallback: number): number {
  return parsed.isSupported(name) ? parsed.getLong(name) : fallback;
}

function localDateOf(parsed: TemporalAccessor): LocalDate {
  const resolved = parsed.query(TemporalQueries.localDate());
  if (resolved) return resolved;
  return LocalDate.of(
    field(parsed, ChronoField.YEAR, 1970),
    field(parsed, ChronoField.MONTH_OF_YEAR, 1),
    field(parsed, ChronoField.DAY_OF_MONTH, 1),
  );
}

function localTimeOf(parsed: TemporalAccessor): LocalTime {
  const resolved = parsed.query(TemporalQueries.localTime());
  if (resolved) return resolved;
  const hour = parsed.isSupported(ChronoField.HOUR_OF_DAY)
    ? parsed.getLong(ChronoField.HOUR_OF_DAY)
    : field(parsed, ChronoField.HOUR_OF_AMPM, 0) + 12 * field(parsed, ChronoField.AMPM_OF_DAY, 0);
  return LocalTime.of(
    hour,
    field(parsed, ChronoField.MINUTE_OF_HOUR, 0),
    field(parsed, ChronoField.SECOND_OF_MINUTE, 0),
    field(parsed, ChronoField.NANO_OF_SECOND, 0),
  );
}

/** The day of the month as written in the text, before resolving. */
function writtenDay(formatter: DateTimeFormatter, textValue: string): number | undefined {
  const unresolved = formatter.parseUnresolved(textValue, new ParsePosition(0)) as unknown as {
    fieldValues?: { get(field: ChronoField): number | undefined };
  } | null;
  return unresolved?.fieldValues?.get(ChronoField.DAY_OF_MONTH);
}

/** Parses text written in a Java pattern; fields not in the pattern default to 1970-01-01 00:00:00.000. */
export function parseDate(textValue: string, pattern: string, zone: string): number {
  const formatter = formatterOf(pattern);
  let parsed: TemporalAccessor;
  let local: LocalDateTime;
  try {
    parsed = formatter.parse(textValue);
    local = LocalDateTime.of(localDateOf(parsed), localTimeOf(parsed));
    // Java's default (SMART) resolving would move 31.02. to the end of February: a day the month lacks is refused.
    const day = writtenDay(formatter, textValue);
    if (day !== undefined && day !== local.dayOfMonth()) throw new Error('no such day in that month');
  } catch (error) {
    const shown = textValue.length > 100 ? `${textValue.slice(0, 100)}...` : textValue;
    throw utilityError(`'${shown}' does not match the date pattern '${pattern}' (${reason(error)})`);
  }
  const offset = parsed.query(TemporalQueries.offset());
  const named = parsed.query(TemporalQueries.zoneId());
  const where = offset ?? named ?? zoneOf(zone);
  return local.atZone(where).toInstant().toEpochMilli();
}
