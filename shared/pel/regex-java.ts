/**
 * Java regular-expression syntax read into the syntax of RE2 (re2js), which runs every user pattern in time
 * linear in the text. What Java has and RE2 spells differently is rewritten (`\u0041`, `\p{Alpha}`, `\e`,
 * `\cX`, `\0101`, `\h`, `\R`, `\Z`, Java's `.` and `\s`, possessive quantifiers); what needs backtracking
 * (backreferences, lookaround, atomic groups) or has no RE2 meaning (class intersection) is refused with a
 * message that names it. See docs/pel.md, "Regular expressions".
 */

/** Thrown for a malformed or unsupported pattern; the caller turns it into BAD_REGEX. */
export class RegexSyntaxError extends Error {}

/** Java's POSIX classes (ASCII only, as in Java without UNICODE_CHARACTER_CLASS) by RE2's names. */
const POSIX: Record<string, string> = {
  Lower: 'lower',
  Upper: 'upper',
  ASCII: 'ascii',
  Alpha: 'alpha',
  Digit: 'digit',
  Alnum: 'alnum',
  Punct: 'punct',
  Graph: 'graph',
  Print: 'print',
  Blank: 'blank',
  Cntrl: 'cntrl',
  XDigit: 'xdigit',
  Space: 'space',
};

/** Java's `java...` properties that have a Unicode category in RE2. */
const JAVA_PROPERTIES: Record<string, string> = {
  javaLowerCase: 'Ll',
  javaUpperCase: 'Lu',
  javaTitleCase: 'Lt',
  javaDigit: 'Nd',
  javaLetter: 'L',
};

/** Java's line terminators, which `.` does not match (without DOTALL). */
const NOT_LINE_TERMINATOR = '[^\\n\\r\\x{85}\\x{2028}\\x{2029}]';
/** Java's `\s`: RE2's lacks the vertical tab. */
const SPACE_ITEMS = '\\t\\n\\x0B\\f\\r ';
const HORIZONTAL_SPACE_ITEMS = ' \\t\\x{A0}\\x{1680}\\x{180e}\\x{2000}-\\x{200a}\\x{202f}\\x{205f}\\x{3000}';
const LINEBREAK = '(?:\\r\\n|[\\n\\x0B\\f\\r\\x{85}\\x{2028}\\x{2029}])';
const QUANTIFIER_END = new Set(['*', '+', '?', '}']);

function hex(code: number): string {
  return `\\x{${code.toString(16)}}`;
}

class JavaToRe2 {
  private i = 0;
  private out = '';
  /** DOTALL per open group (inline `(?s)` lasts to the end of the group it appears in). */
  private dotAll: boolean[] = [false];

  constructor(private readonly p: string) {}

  translate(): string {
    const p = this.p;
    while (this.i < p.length) {
      const c = p[this.i]!;
      if (c === '\\') this.escape(false);
      else if (c === '[') this.charClass();
      else if (c === '(') this.openGroup();
      else if (c === ')') {
        if (this.dotAll.length > 1) this.dotAll.pop();
        this.emit(c, 1);
      } else if (c === '.') {
        this.emit(this.dotAll[this.dotAll.length - 1] ? '(?s:.)' : NOT_LINE_TERMINATOR, 1);
      } else if (c === '+' && QUANTIFIER_END.has(p[this.i - 1] ?? '') && !this.escapedBefore()) {
        this.i++; // possessive (a++, a*+, a?+, a{2}+): read as greedy
      } else this.emit(c, 1);
    }
    return this.out;
  }

  private emit(text: string, advance: number): void {
    this.out += text;
    this.i += advance;
  }

  /** Whether the character before `i` is itself escaped (so `\++` is a literal plus repeated). */
  private escapedBefore(): boolean {
    let n = 0;
    for (let k = this.i - 2; k >= 0 && this.p[k] === '\\'; k--) n++;
    return n % 2 === 1;
  }

  private openGroup(): void {
    const rest = this.p.slice(this.i + 1);
    const inherited = this.dotAll[this.dotAll.length - 1]!;
    if (!rest.startsWith('?')) {
      this.dotAll.push(inherited);
      this.emit('(', 1);
      return;
    }
    if (/^\?(?:[=!]|<[=!])/.test(rest))
      throw new RegexSyntaxError('lookahead and lookbehind ((?=, (?!, (?<=, (?<!) are not supported');
    if (rest.startsWith('?>')) throw new RegexSyntaxError('atomic groups (?>...) are not supported');
    const named = /^\?<([A-Za-z][A-Za-z0-9]*)>/.exec(rest);
    if (named) {
      this.dotAll.push(inherited);
      this.emit(`(?P<${named[1]}>`, 1 + named[0].length);
      return;
    }
    if (rest.startsWith('?:')) {
      this.dotAll.push(inherited);
      this.emit('(?:', 3);
      return;
    }
    const flags = /^\?([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])/.exec(rest);
    if (!flags) throw new RegexSyntaxError(`unknown group construct at ${this.i}`);
    const [whole, on = '', off = '', end] = flags;
    let dotAll = inherited;
    for (const f of on + off) {
      if (!'imsu'.includes(f)) throw new RegexSyntaxError(`the inline flag '${f}' is not supported`);
    }
    if (on.includes('s')) dotAll = true;
    if (off.includes('s')) dotAll = false;
    // `u` (Unicode case folding) is how RE2 folds case anyway; RE2 has no use for it.
    const keepOn = on.replace(/u/g, '');
    const keepOff = off.replace(/u/g, '');
    const spelled = keepOn + (keepOff ? `-${keepOff}` : '');
    if (end === ')') {
      this.dotAll[this.dotAll.length - 1] = dotAll;
      this.emit(spelled ? `(?${spelled})` : '', 1 + whole.length);
    } else {
      this.dotAll.push(dotAll);
      this.emit(spelled ? `(?${spelled}:` : '(?:', 1 + whole.length);
    }
  }

  /** A character class; `[` inside one (Java's union) and `&&` (intersection) are refused. */
  private charClass(): void {
    this.emit('[', 1);
    if (this.p[this.i] === '^') this.emit('^', 1);
    if (this.p[this.i] === ']') this.emit('\\]', 1);
    for (;;) {
      const c = this.p[this.i];
      if (c === undefined) throw new RegexSyntaxError("unclosed '['");
      if (c === ']') {
        this.emit(']', 1);
        return;
      }
      if (c === '[') throw new RegexSyntaxError('nested character classes ([a[b]]) are not supported');
      if (c === '&' && this.p[this.i + 1] === '&')
        throw new RegexSyntaxError('character class intersection (&&) is not supported');
      if (c === '\\') this.escape(true);
      else this.emit(c, 1);
    }
  }

  /** An escape at `i` (a backslash), inside a class or not. */
  private escape(inClass: boolean): void {
    const p = this.p;
    const c = p[this.i + 1];
    if (c === undefined) throw new RegexSyntaxError('trailing backslash');
    if (c === 'Q') {
      const end = p.indexOf('\\E', this.i + 2);
      const literal = p.slice(this.i + 2, end < 0 ? undefined : end);
      this.out += [...literal].map((ch) => hex(ch.codePointAt(0)!)).join('');
      this.i = end < 0 ? p.length : end + 2;
      return;
    }
    if (/[1-9]/.test(c) || (c === 'k' && p[this.i + 2] === '<'))
      throw new RegexSyntaxError('backreferences (\\1, \\k<name>) are not supported');
    switch (c) {
      case 'u': {
        const digits = p.slice(this.i + 2, this.i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(digits)) throw new RegexSyntaxError('bad \\u escape');
        return this.emit(hex(parseInt(digits, 16)), 6);
      }
      case '0': {
        const m = /^[0-7]{1,3}/.exec(p.slice(this.i + 2));
        if (!m || parseInt(m[0], 8) > 0o377) throw new RegexSyntaxError('bad octal escape');
        return this.emit(hex(parseInt(m[0], 8)), 2 + m[0].length);
      }
      case 'c': {
        const ch = p[this.i + 2];
        if (ch === undefined) throw new RegexSyntaxError('bad \\c escape');
        return this.emit(hex(ch.charCodeAt(0) ^ 64), 3);
      }
      case 'e':
        return this.emit('\\x{1b}', 2);
      case 's':
        return this.emit(inClass ? SPACE_ITEMS : `[${SPACE_ITEMS}]`, 2);
      case 'S':
        return this.emit(inClass ? '\\S' : `[^${SPACE_ITEMS}]`, 2);
      case 'h':
        return this.emit(inClass ? HORIZONTAL_SPACE_ITEMS : `[${HORIZONTAL_SPACE_ITEMS}]`, 2);
      case 'H':
        if (inClass) throw new RegexSyntaxError('\\H inside a character class is not supported');
        return this.emit(`[^${HORIZONTAL_SPACE_ITEMS}]`, 2);
      case 'R':
        if (inClass) throw new RegexSyntaxError('\\R inside a character class is not supported');
        return this.emit(LINEBREAK, 2);
      case 'Z':
        if (inClass) throw new RegexSyntaxError('bad escape \\Z in a character class');
        // Java: the end, or before a final line terminator (consumed here: RE2 has no lookahead).
        return this.emit(`(?:${LINEBREAK}?\\z)`, 2);
      case 'G':
      case 'X':
      case 'N':
        throw new RegexSyntaxError(`the escape \\${c} is not supported`);
      case 'p':
      case 'P':
        return this.property(c === 'P', inClass);
      default:
        return this.emit(`\\${c}`, 2);
    }
  }

  /** `\p{Name}`: POSIX and `java...` names become RE2 classes, `Is`/`general category` names pass on. */
  private property(negated: boolean, inClass: boolean): void {
    const m = /^\{\^?([A-Za-z_][A-Za-z0-9_]*)\}|^([A-Za-z])/.exec(this.p.slice(this.i + 2));
    if (!m) throw new RegexSyntaxError('bad \\p{...}');
    const name = (m[1] ?? m[2])!;
    const advance = 2 + m[0].length;
    const posix = POSIX[name];
    if (posix) {
      const item = `[:${negated ? '^' : ''}${posix}:]`;
      return this.emit(inClass ? item : `[${item}]`, advance);
    }
    const re2Name =
      JAVA_PROPERTIES[name] ?? name.replace(/^Is(?=[A-Z])/, '').replace(/^general_category=/, '');
    if (!/^[A-Za-z_]+$/.test(re2Name) || name.startsWith('In'))
      throw new RegexSyntaxError(`unknown property \\p{${name}}`);
    this.emit(`\\${negated ? 'P' : 'p'}{${re2Name}}`, advance);
  }
}

/** The RE2 spelling of a Java pattern; throws RegexSyntaxError for what RE2 cannot run. */
export function javaToRe2(pattern: string): string {
  return new JavaToRe2(pattern).translate();
}
