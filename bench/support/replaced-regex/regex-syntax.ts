/** Java regular expression syntax parsed into a small tree (for the linear-time engine in regex.ts). */

/** A character test: ranges of UTF-16 code units and/or predicates, possibly negated. */
export interface CharClass {
  ranges: number[]; // pairs lo, hi (inclusive)
  tests: ((c: string) => boolean)[];
  negate: boolean;
}

/** Thrown for a malformed or unsupported pattern; the caller turns it into BAD_REGEX. */
export class RegexSyntaxError extends Error {}

export type AssertKind = 'bol' | 'eol' | 'mbol' | 'meol' | 'start' | 'end' | 'endz' | 'word' | 'nonword';

export type RegexNode =
  | { t: 'empty' }
  | { t: 'char'; code: number; icase: boolean }
  | { t: 'class'; cls: CharClass; icase: boolean }
  | { t: 'any'; dotAll: boolean }
  | { t: 'assert'; kind: AssertKind }
  | { t: 'group'; node: RegexNode; index: number | null }
  | { t: 'concat'; nodes: RegexNode[] }
  | { t: 'alt'; nodes: RegexNode[] }
  | { t: 'repeat'; node: RegexNode; min: number; max: number; lazy: boolean };

interface Flags {
  icase: boolean;
  dotAll: boolean;
  multiline: boolean;
}

const DIGIT: CharClass = { ranges: [48, 57], tests: [], negate: false };
const WORD: CharClass = { ranges: [48, 57, 65, 90, 95, 95, 97, 122], tests: [], negate: false };
const SPACE: CharClass = { ranges: [9, 13, 32, 32], tests: [], negate: false };
const POSIX: Record<string, number[]> = {
  Lower: [97, 122],
  Upper: [65, 90],
  ASCII: [0, 127],
  Alpha: [65, 90, 97, 122],
  Digit: [48, 57],
  Alnum: [48, 57, 65, 90, 97, 122],
  Punct: [33, 47, 58, 64, 91, 96, 123, 126],
  Space: [9, 13, 32, 32],
  XDigit: [48, 57, 65, 70, 97, 102],
  Blank: [9, 9, 32, 32],
  Cntrl: [0, 31, 127, 127],
};

function negated(c: CharClass): CharClass {
  return { ...c, negate: !c.negate };
}

class RegexParser {
  private i = 0;
  private groupCount = 0;

  constructor(private readonly p: string) {}

  parse(): { node: RegexNode; groups: number } {
    const node = this.alternation({ icase: false, dotAll: false, multiline: false });
    if (this.i < this.p.length) throw new RegexSyntaxError(`unmatched ')' at ${this.i}`);
    return { node, groups: this.groupCount };
  }

  private alternation(flags: Flags): RegexNode {
    const f = { ...flags };
    const branches: RegexNode[] = [this.sequence(f)];
    while (this.p[this.i] === '|') {
      this.i++;
      branches.push(this.sequence(f));
    }
    return branches.length === 1 ? branches[0]! : { t: 'alt', nodes: branches };
  }

  /** A sequence; inline flags like (?i) change `flags` for the rest of the enclosing group. */
  private sequence(flags: Flags): RegexNode {
    const nodes: RegexNode[] = [];
    while (this.i < this.p.length && this.p[this.i] !== '|' && this.p[this.i] !== ')') {
      const atom = this.atom(flags);
      if (atom) nodes.push(this.quantified(atom));
    }
    return nodes.length === 1 ? nodes[0]! : { t: 'concat', nodes };
  }

  private quantified(atom: RegexNode): RegexNode {
    for (;;) {
      const c = this.p[this.i];
      let min: number;
      let max: number;
      if (c === '*') [min, max] = [0, Infinity];
      else if (c === '+') [min, max] = [1, Infinity];
      else if (c === '?') [min, max] = [0, 1];
      else if (c === '{' && /^\{\d+(,\d*)?\}/.test(this.p.slice(this.i))) {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(this.p.slice(this.i))!;
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
        if (max < min || min > 1000 || (max !== Infinity && max > 1000))
          throw new RegexSyntaxError('bad repetition bounds');
        this.i += m[0].length - 1;
      } else return atom;
      this.i++;
      if (atom.t === 'assert' || atom.t === 'empty') throw new RegexSyntaxError('nothing to repeat');
      let lazy = false;
      if (this.p[this.i] === '?') {
        lazy = true;
        this.i++;
      } else if (this.p[this.i] === '+') this.i++; // possessive: treated as greedy
      atom = { t: 'repeat', node: atom, min, max, lazy };
    }
  }

  private atom(flags: Flags): RegexNode | null {
    const c = this.p[this.i++]!;
    switch (c) {
      case '(':
        return this.group(flags);
      case '[':
        return { t: 'class', cls: this.charClass(), icase: flags.icase };
      case '.':
        return { t: 'any', dotAll: flags.dotAll };
      case '^':
        return { t: 'assert', kind: flags.multiline ? 'mbol' : 'bol' };
      case '$':
        return { t: 'assert', kind: flags.multiline ? 'meol' : 'eol' };
      case '\\':
        return this.escape(flags);
      case '*':
      case '+':
      case '?':
        throw new RegexSyntaxError(`dangling '${c}'`);
      default:
        return { t: 'char', code: c.charCodeAt(0), icase: flags.icase };
    }
  }

  private group(flags: Flags): RegexNode | null {
    let index: number | null = null;
    const inner = { ...flags };
    if (this.p[this.i] === '?') {
      const rest = this.p.slice(this.i + 1);
      if (rest.startsWith(':')) this.i += 2;
      else if (/^<[A-Za-z][A-Za-z0-9]*>/.test(rest)) {
        this.i += 1 + rest.indexOf('>') + 1;
        index = ++this.groupCount;
      } else if (/^[=!]|^<[=!]|^>/.test(rest)) {
        throw new RegexSyntaxError('lookaround and atomic groups are not supported');
      } else {
        const m = /^([imsux]*)(?:-([imsux]*))?([:)])/.exec(rest);
        if (!m) throw new RegexSyntaxError('unknown group construct');
        const target = m[3] === ')' ? flags : inner;
        for (const f of m[1]!) setFlag(target, f, true);
        for (const f of m[2] ?? '') setFlag(target, f, false);
        this.i += 1 + m[0].length;
        if (m[3] === ')') return null;
      }
    } else index = ++this.groupCount;
    const node = this.alternation(inner);
    if (this.p[this.i] !== ')') throw new RegexSyntaxError("unclosed '('");
    this.i++;
    return { t: 'group', node, index };
  }

  private escape(flags: Flags): RegexNode {
    const c = this.p[this.i++];
    if (c === undefined) throw new RegexSyntaxError('trailing backslash');
    switch (c) {
      case 'b':
        return { t: 'assert', kind: 'word' };
      case 'B':
        return { t: 'assert', kind: 'nonword' };
      case 'A':
        return { t: 'assert', kind: 'start' };
      case 'z':
        return { t: 'assert', kind: 'end' };
      case 'Z':
        return { t: 'assert', kind: 'endz' };
      case 'Q': {
        const end = this.p.indexOf('\\E', this.i);
        const text = this.p.slice(this.i, end < 0 ? undefined : end);
        this.i = end < 0 ? this.p.length : end + 2;
        return {
          t: 'concat',
          nodes: [...text].map(
            (ch) => ({ t: 'char', code: ch.charCodeAt(0), icase: flags.icase }) as RegexNode,
          ),
        };
      }
      default: {
        if (/[1-9k]/.test(c)) throw new RegexSyntaxError('backreferences are not supported');
        const cls = this.classEscape(c);
        if (cls) return { t: 'class', cls, icase: flags.icase };
        return { t: 'char', code: this.charEscape(c), icase: flags.icase };
      }
    }
  }

  private classEscape(c: string): CharClass | null {
    switch (c) {
      case 'd':
        return DIGIT;
      case 'D':
        return negated(DIGIT);
      case 'w':
        return WORD;
      case 'W':
        return negated(WORD);
      case 's':
        return SPACE;
      case 'S':
        return negated(SPACE);
      case 'p':
      case 'P': {
        const m = /^\{([A-Za-z_]+)\}|^([A-Z])/.exec(this.p.slice(this.i));
        if (!m) throw new RegexSyntaxError('bad \\p{...}');
        this.i += m[0].length;
        const cls = propertyClass((m[1] ?? m[2])!);
        return c === 'P' ? negated(cls) : cls;
      }
      default:
        return null;
    }
  }

  private charEscape(c: string): number {
    switch (c) {
      case 't':
        return 9;
      case 'n':
        return 10;
      case 'r':
        return 13;
      case 'f':
        return 12;
      case 'a':
        return 7;
      case 'e':
        return 27;
      case '0': {
        const m = /^[0-7]{1,3}/.exec(this.p.slice(this.i));
        if (!m) throw new RegexSyntaxError('bad octal escape');
        this.i += m[0].length;
        return parseInt(m[0], 8);
      }
      case 'x':
      case 'u': {
        const len = c === 'x' ? 2 : 4;
        const hex = this.p.slice(this.i, this.i + len);
        if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) throw new RegexSyntaxError(`bad \\${c} escape`);
        this.i += len;
        return parseInt(hex, 16);
      }
      case 'c': {
        const ch = this.p[this.i++];
        if (!ch) throw new RegexSyntaxError('bad \\c escape');
        return ch.charCodeAt(0) ^ 64;
      }
      default:
        if (/[A-Za-z]/.test(c)) throw new RegexSyntaxError(`unknown escape \\${c}`);
        return c.charCodeAt(0);
    }
  }

  private charClass(): CharClass {
    const cls: CharClass = { ranges: [], tests: [], negate: false };
    if (this.p[this.i] === '^') {
      cls.negate = true;
      this.i++;
    }
    let first = true;
    for (;;) {
      const c = this.p[this.i];
      if (c === undefined) throw new RegexSyntaxError("unclosed '['");
      if (c === ']' && !first) {
        this.i++;
        return cls;
      }
      first = false;
      if (c === '[' || (c === '&' && this.p[this.i + 1] === '&'))
        throw new RegexSyntaxError('nested classes are not supported');
      const lo = this.classAtom(cls);
      if (lo === null) continue;
      if (this.p[this.i] === '-' && this.p[this.i + 1] !== ']' && this.p[this.i + 1] !== undefined) {
        this.i++;
        const hi = this.classAtom(cls);
        if (hi === null || hi < lo) throw new RegexSyntaxError('bad character range');
        cls.ranges.push(lo, hi);
      } else cls.ranges.push(lo, lo);
    }
  }

  /** One item of a class: returns a code unit, or null when it added a whole class (\d, \p{L}). */
  private classAtom(cls: CharClass): number | null {
    const c = this.p[this.i++]!;
    if (c !== '\\') return c.charCodeAt(0);
    const e = this.p[this.i++];
    if (e === undefined) throw new RegexSyntaxError('trailing backslash');
    const sub = this.classEscape(e);
    if (!sub) return this.charEscape(e);
    cls.tests.push((ch) => classMatches(sub, ch.charCodeAt(0), ch));
    return null;
  }
}

function setFlag(flags: Flags, f: string, on: boolean): void {
  if (f === 'i') flags.icase = on;
  else if (f === 's') flags.dotAll = on;
  else if (f === 'm') flags.multiline = on;
}

function propertyClass(name: string): CharClass {
  const posix = POSIX[name];
  if (posix) return { ranges: posix, tests: [], negate: false };
  const js = name
    .replace(/^Is/, '')
    .replace(/^javaLowerCase$/, 'Ll')
    .replace(/^javaUpperCase$/, 'Lu');
  let re: RegExp;
  try {
    re = new RegExp(`^\\p{${js}}$`, 'u');
  } catch {
    throw new RegexSyntaxError(`unknown property \\p{${name}}`);
  }
  return { ranges: [], tests: [(ch) => re.test(ch)], negate: false };
}

export function classMatches(cls: CharClass, code: number, ch: string): boolean {
  let hit = false;
  const r = cls.ranges;
  for (let k = 0; k < r.length; k += 2) {
    if (code >= r[k]! && code <= r[k + 1]!) {
      hit = true;
      break;
    }
  }
  if (!hit) for (const t of cls.tests) if (t(ch)) hit = true;
  return hit !== cls.negate;
}

/** Parses a Java pattern; throws RegexSyntaxError for bad or unsupported syntax. */
export function parseRegex(pattern: string): { node: RegexNode; groups: number } {
  return new RegexParser(pattern).parse();
}
