/**
 * Regular expressions for every user pattern (`matches`, `split`, `replaceAll`, `@text`, JSONPath's `match`
 * and `search`): Java syntax (read by regex-java.ts) run by re2js, RE2's engine, whose time is linear in
 * the text and never backtracks. Linear is not free: one engine call costs up to the text's length times the
 * pattern's program size, so a call past `maxRegexWork` is refused before it starts, and loops of matches
 * (split, replace) read the evaluation's clock between two matches.
 */
import { type Matcher, RE2JS } from 're2js';
import { type Site, pelError } from './errors';
import { DEFAULT_PEL_LIMITS } from './limits';
import { RegexSyntaxError, javaToRe2 } from './regex-java';
import { type Runtime, checkClock } from './runtime';
import { LruCache } from '../values/lru-cache';

/** Compiled patterns by their Java text, weighed by pattern length plus program size. */
const compiled = new LruCache<RE2JS>(500, 2_000_000);
/** Program sizes, read once per compiled pattern (re2js counts the program on every call). */
const programSizes = new WeakMap<RE2JS, number>();

/** Patterns longer than this are refused before they are read (the PEL text limit is 10,000). */
const MAX_PATTERN_LENGTH = 10_000;

/** Compiles a Java pattern, or throws BAD_REGEX with the reason (backreferences, lookaround, syntax...). */
export function compileJavaRegex(pattern: string, site: Site | null): RE2JS {
  let re = compiled.get(pattern);
  if (!re) {
    if (pattern.length > MAX_PATTERN_LENGTH) throw pelError('REGEX_TOO_LONG', site, MAX_PATTERN_LENGTH);
    try {
      re = RE2JS.compile(javaToRe2(pattern));
    } catch (e) {
      if (e instanceof RegexSyntaxError) throw pelError('BAD_REGEX', site, e.message);
      throw pelError('BAD_REGEX', site, re2Message(e));
    }
    const size = Math.max(1, re.programSize());
    programSizes.set(re, size);
    compiled.set(pattern, re, pattern.length + size * 4);
  }
  return re;
}

/** RE2's message without its prefix and without the translated pattern it quotes. */
function re2Message(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return message.replace(/^error parsing regexp: /, '').replace(/: `.*`$/s, '');
}

/** Refuses an engine call that could cost more than `maxRegexWork` (text length times program size). */
function checkWork(re: RE2JS, text: string, maxWork: number, site: Site | null): void {
  const work = text.length * (programSizes.get(re) ?? 1);
  if (work > maxWork) throw pelError('REGEX_TOO_COSTLY', site, work, maxWork);
}

/** Java's String.matches: the whole text must match. */
export function regexFullMatch(pattern: string, text: string, rt: Runtime, site: Site): boolean {
  const re = compileJavaRegex(pattern, site);
  checkWork(re, text, rt.limits.maxRegexWork, site);
  const matched = re.testExact(text);
  afterRegex(rt, site);
  return matched;
}

/**
 * Whether the pattern matches anywhere in the text (JSONPath's `search`), or the whole text (`match`),
 * for callers outside an evaluation: bounded by the default `maxRegexWork`.
 */
export function regexTest(pattern: string, text: string, whole: boolean, site: Site | null = null): boolean {
  const re = compileJavaRegex(pattern, site);
  checkWork(re, text, DEFAULT_PEL_LIMITS.maxRegexWork, site);
  return whole ? re.testExact(text) : re.test(text);
}

/**
 * Inside a loop (the evaluation's clock runs), a regex call has a cost: the evaluation's time bound is
 * checked after each, not only every 1,024 items.
 */
function afterRegex(rt: Runtime, site: Site): void {
  if (rt.deadline !== 0) checkClock(rt, site);
}

/**
 * The groups of a whole-text match, or null when the text does not match: for utilities that parse with a
 * pattern they build (dates). `_timeoutMs` is kept for the callers: the work bound replaces it.
 */
export function regexGroups(pattern: string, text: string, _timeoutMs?: number): (string | null)[] | null {
  const re = compileJavaRegex(pattern, null);
  checkWork(re, text, DEFAULT_PEL_LIMITS.maxRegexWork, null);
  const m = re.matcher(text);
  if (!m.matches()) return null;
  const groups: (string | null)[] = [];
  for (let g = 1; g <= m.groupCount(); g++) groups.push(m.group(g));
  return groups;
}

/** Every match, left to right, as Java's Matcher.find does; the clock is read between two matches. */
function* findAll(pattern: string, text: string, rt: Runtime, site: Site): Generator<Matcher> {
  const re = compileJavaRegex(pattern, site);
  checkWork(re, text, rt.limits.maxRegexWork, site);
  const m = re.matcher(text);
  let count = 0;
  while (m.find()) {
    if (++count % 64 === 0) checkClock(rt, site);
    yield m;
  }
}

/** Java's String.split(regex, limit): no leading empty string from a zero-width match; limit 0 drops trailing empties. */
export function regexSplit(pattern: string, text: string, limit: number, rt: Runtime, site: Site): string[] {
  if (text === '') return [''];
  const out: string[] = [];
  let index = 0;
  for (const m of findAll(pattern, text, rt, site)) {
    if (limit > 0 && out.length === limit - 1) break;
    if (m.end() === 0) continue; // a zero-width match at the beginning
    out.push(text.slice(index, m.start()));
    index = m.end();
  }
  afterRegex(rt, site);
  if (out.length === 0 && index === 0) return [text];
  out.push(text.slice(index));
  if (limit === 0) while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out;
}

/** Java's replaceAll / replaceFirst, with `$n` group references and `\` escapes in the replacement. */
export function regexReplace(
  pattern: string,
  text: string,
  replacement: string,
  all: boolean,
  rt: Runtime,
  site: Site,
): string {
  const parts: string[] = [];
  let index = 0;
  for (const m of findAll(pattern, text, rt, site)) {
    parts.push(text.slice(index, m.start()), expandReplacement(replacement, m, site));
    index = m.end();
    if (!all) break;
  }
  afterRegex(rt, site);
  parts.push(text.slice(index));
  return parts.join('');
}

function expandReplacement(replacement: string, m: Matcher, site: Site): string {
  if (!replacement.includes('$') && !replacement.includes('\\')) return replacement;
  const groups = m.groupCount();
  let out = '';
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i]!;
    if (c === '\\' && i + 1 < replacement.length) {
      out += replacement[++i];
    } else if (c === '$') {
      // Java reads as many digits as still name an existing group: with one group, "$12" is $1 then "2".
      let j = i + 1;
      let n = -1;
      while (j < replacement.length && /[0-9]/.test(replacement[j]!)) {
        const next = (n < 0 ? 0 : n * 10) + Number(replacement[j]);
        if (n >= 0 && next > groups) break;
        n = next;
        j++;
      }
      if (n < 0)
        throw pelError('BAD_REGEX', site, "a '$' in the replacement must be followed by a group number");
      if (n > groups) throw pelError('BAD_REGEX', site, `no group ${n}`);
      out += m.group(n) ?? '';
      i = j - 1;
    } else out += c;
  }
  return out;
}
