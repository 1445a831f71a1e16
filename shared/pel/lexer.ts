/** The PEL lexer: turns source text into tokens; it never throws, bad input becomes an `error` token. */

export type TokenKind =
  'number' | 'string' | 'identifier' | 'variable' | 'utility' | 'punct' | 'error' | 'eof';

export interface Token {
  kind: TokenKind;
  /** Punctuator text, identifier or variable name (without # or @), string content, number text, or error reason. */
  value: string;
  start: number;
  end: number;
  /** For numbers: the value and whether it was written as a decimal (dot, exponent, d or f suffix). */
  number?: number;
  decimal?: boolean;
}

/** Longest first, so that `?.` wins over `?` and `==` over `=`. */
const PUNCTUATORS = [
  '#{', '?.', '?[', '?:', '^[', '$[', '![', '==', '!=', '<=', '>=', '&&', '||',
  '(', ')', '[', ']', '{', '}', ',', ':', '.', '?', '+', '-', '*', '/', '%', '^', '<', '>', '!', '=',
]; // prettier-ignore

const IDENT_START = /[\p{L}_$]/u;
const IDENT_PART = /[\p{L}\p{N}_$]/u;

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function isIdentStart(c: string | undefined): boolean {
  return c !== undefined && IDENT_START.test(c);
}

function isIdentPart(c: string | undefined): boolean {
  return c !== undefined && IDENT_PART.test(c);
}

/** Tokenizes `source` between `from` and `to` (offsets stay relative to the whole source). Ends with `eof`. */
export function tokenize(source: string, from = 0, to = source.length): Token[] {
  const tokens: Token[] = [];
  to = Math.max(0, Math.min(to, source.length));
  let i = Math.max(0, Math.min(from, to));
  while (i < to) {
    const c = source[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    const token = lexOne(source, i, to);
    tokens.push(token);
    i = token.end;
  }
  tokens.push({ kind: 'eof', value: '', start: to, end: to });
  return tokens;
}

function lexOne(s: string, i: number, to: number): Token {
  const c = s[i]!;
  if (isDigit(c)) return lexNumber(s, i, to);
  if (c === "'" || c === '"') return lexString(s, i, to, c);
  if (c === '$' && s[i + 1] === '[' && i + 1 < to)
    return { kind: 'punct', value: '$[', start: i, end: i + 2 };
  if (isIdentStart(c)) {
    const end = identEnd(s, i + 1, to);
    return { kind: 'identifier', value: s.slice(i, end), start: i, end };
  }
  if ((c === '#' || c === '@') && isIdentStart(s[i + 1]) && i + 1 < to) {
    const end = identEnd(s, i + 2, to);
    return { kind: c === '#' ? 'variable' : 'utility', value: s.slice(i + 1, end), start: i, end };
  }
  for (const p of PUNCTUATORS) {
    if (s.startsWith(p, i) && i + p.length <= to)
      return { kind: 'punct', value: p, start: i, end: i + p.length };
  }
  return { kind: 'error', value: 'UNEXPECTED_CHARACTER', start: i, end: i + 1 };
}

function identEnd(s: string, i: number, to: number): number {
  while (i < to && isIdentPart(s[i])) i++;
  return i;
}

function lexString(s: string, start: number, to: number, quote: string): Token {
  let value = '';
  let i = start + 1;
  while (i < to) {
    const c = s[i]!;
    if (c === quote) {
      if (s[i + 1] === quote && i + 1 < to) {
        value += quote;
        i += 2;
        continue;
      }
      return { kind: 'string', value, start, end: i + 1 };
    }
    value += c;
    i++;
  }
  return { kind: 'error', value: 'UNTERMINATED_STRING', start, end: to };
}

function lexNumber(s: string, start: number, to: number): Token {
  let i = start;
  if (s[i] === '0' && (s[i + 1] === 'x' || s[i + 1] === 'X')) {
    i += 2;
    while (i < to && /[0-9a-fA-F]/.test(s[i]!)) i++;
    if (i < to && (s[i] === 'l' || s[i] === 'L')) i++;
    const text = s.slice(start, i);
    const hex = text.replace(/[lL]$/, '');
    if (hex.length <= 2 || isIdentPart(s[i])) return badNumber(start, identEnd(s, i, to));
    const value = parseInt(hex.slice(2), 16);
    if (!Number.isFinite(value)) return badNumber(start, i);
    return { kind: 'number', value: text, start, end: i, number: value, decimal: false };
  }
  let decimal = false;
  while (isDigit(s[i]) && i < to) i++;
  if (s[i] === '.' && isDigit(s[i + 1]) && i + 1 < to) {
    decimal = true;
    i++;
    while (isDigit(s[i]) && i < to) i++;
  }
  if ((s[i] === 'e' || s[i] === 'E') && i < to) {
    let j = i + 1;
    if (s[j] === '+' || s[j] === '-') j++;
    if (isDigit(s[j]) && j < to) {
      decimal = true;
      i = j;
      while (isDigit(s[i]) && i < to) i++;
    }
  }
  const body = s.slice(start, i);
  const suffix = s[i];
  if (i < to && suffix !== undefined && /[lLdDfF]/.test(suffix) && !isIdentPart(s[i + 1])) {
    if (suffix === 'l' || suffix === 'L') {
      if (decimal) return badNumber(start, i + 1);
    } else decimal = true;
    i++;
  } else if (isIdentPart(s[i]) && i < to) {
    return badNumber(start, identEnd(s, i, to));
  }
  const number = Number(body);
  // Past the largest double (1e309) a literal would be Infinity, which no PEL number is.
  if (!Number.isFinite(number)) return badNumber(start, i);
  return { kind: 'number', value: s.slice(start, i), start, end: i, number, decimal };
}

function badNumber(start: number, end: number): Token {
  return { kind: 'error', value: 'BAD_NUMBER', start, end };
}
