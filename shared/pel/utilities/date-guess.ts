/** `@date.guessAndFormat` and `@date.parseToInstant`: a date in one of the common ways people write it, by date-fns. */
import { isValid, parse } from 'date-fns';

/**
 * The forms tried after ISO-8601, in order (date-fns tokens). Slashes are read month first (US), then day
 * first; dots and dashes with the year last are day first (European).
 */
const FORMATS = [
  'yyyy-MM-dd HH:mm:ss',
  'yyyy-MM-dd HH:mm',
  'yyyy-MM-dd',
  'yyyy/MM/dd HH:mm:ss',
  'yyyy/MM/dd',
  'yyyyMMdd',
  'dd.MM.yyyy HH:mm:ss',
  'dd.MM.yyyy HH:mm',
  'dd.MM.yyyy',
  'd.M.yyyy',
  'dd.MM.yy',
  'MM/dd/yyyy HH:mm:ss',
  'MM/dd/yyyy HH:mm',
  'MM/dd/yyyy',
  'M/d/yyyy',
  'dd/MM/yyyy HH:mm:ss',
  'dd/MM/yyyy HH:mm',
  'dd/MM/yyyy',
  'dd-MM-yyyy HH:mm',
  'dd-MM-yyyy',
  'd MMMM yyyy',
  'd MMM yyyy',
  'MMMM d, yyyy',
  'MMM d, yyyy',
  'EEE, d MMM yyyy HH:mm:ss',
  'EEE MMM d yyyy HH:mm:ss',
];

/** ISO-8601 date-times (a text without zone is UTC), which Date.parse reads exactly. */
const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Epoch milliseconds of a date written in a common form (as UTC when it names no zone), or null. */
export function guessDate(text: string): number | null {
  const t = text.trim();
  if (t.length > 100) return null;
  if (ISO.test(t)) {
    const zoned = /T.*(Z|[+-]\d{2}:?\d{2})$/.test(t);
    const ms = Date.parse(zoned || !t.includes('T') ? t : `${t}Z`);
    if (Number.isFinite(ms)) return ms;
  }
  if (/^\d{12,13}$/.test(t)) return Number(t);
  const reference = new Date(2000, 0, 1);
  for (const format of FORMATS) {
    const d = parse(t, format, reference);
    // date-fns reads into the local zone: its fields are taken as UTC, as the text names no zone.
    if (isValid(d))
      return Date.UTC(
        d.getFullYear(),
        d.getMonth(),
        d.getDate(),
        d.getHours(),
        d.getMinutes(),
        d.getSeconds(),
        d.getMilliseconds(),
      );
  }
  return null;
}
