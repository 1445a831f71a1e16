/** Regular expressions for `matches`, `split` and `replaceAll` (placeholder: replaced by the bounded engine). */
import { type Site, pelError } from './errors';
import type { Runtime } from './runtime';

const cache = new Map<string, RegExp>();

function compile(pattern: string, site: Site): RegExp {
  let re = cache.get(pattern);
  if (!re) {
    try {
      re = new RegExp(pattern, 'gu');
    } catch (e) {
      throw pelError('BAD_REGEX', site, (e as Error).message);
    }
    cache.set(pattern, re);
  }
  return re;
}

interface Match {
  start: number;
  end: number;
  groups: (string | undefined)[];
}

function* matchesOf(pattern: string, text: string, site: Site): Generator<Match> {
  const re = compile(pattern, site);
  re.lastIndex = 0;
  for (;;) {
    const m = re.exec(text);
    if (!m) return;
    yield { start: m.index, end: m.index + m[0].length, groups: [...m] };
    if (m[0].length === 0) re.lastIndex++;
  }
}

/** Java's String.matches: the whole text must match. */
export function regexFullMatch(pattern: string, text: string, _rt: Runtime, site: Site): boolean {
  for (const m of matchesOf(`^(?:${pattern})$`, text, site)) return m.start === 0;
  return false;
}

/** Java's String.split(regex, limit). */
export function regexSplit(pattern: string, text: string, limit: number, _rt: Runtime, site: Site): string[] {
  const out: string[] = [];
  let index = 0;
  let matched = false;
  for (const m of matchesOf(pattern, text, site)) {
    if (limit > 0 && out.length === limit - 1) break;
    if (m.end === 0 && m.start === 0) continue;
    matched = true;
    out.push(text.slice(index, m.start));
    index = m.end;
  }
  if (!matched) return [text];
  out.push(text.slice(index));
  if (limit === 0) while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out;
}

/** Java's replaceAll / replaceFirst, with `$1` group references and `\` escapes in the replacement. */
export function regexReplace(
  pattern: string,
  text: string,
  replacement: string,
  all: boolean,
  _rt: Runtime,
  site: Site,
): string {
  let out = '';
  let index = 0;
  for (const m of matchesOf(pattern, text, site)) {
    out += text.slice(index, m.start) + expandReplacement(replacement, m.groups, site);
    index = m.end;
    if (!all) break;
  }
  return out + text.slice(index);
}

function expandReplacement(replacement: string, groups: (string | undefined)[], site: Site): string {
  let out = '';
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i]!;
    if (c === '\\' && i + 1 < replacement.length) {
      out += replacement[++i];
    } else if (c === '$') {
      let j = i + 1;
      while (j < replacement.length && /[0-9]/.test(replacement[j]!)) j++;
      if (j === i + 1) throw pelError('BAD_REGEX', site, "a '$' in the replacement must be followed by a group number");
      const n = Number(replacement.slice(i + 1, j));
      if (n >= groups.length) throw pelError('BAD_REGEX', site, `no group ${n}`);
      out += groups[n] ?? '';
      i = j - 1;
    } else out += c;
  }
  return out;
}
