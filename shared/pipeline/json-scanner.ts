/**
 * An iterative JSON checker: JSON.parse gives the values but neither reliable positions for errors nor
 * duplicate keys nor a depth bound, so this scanner runs first and records where the pipeline's parts are.
 */
import { PIPELINE_LIMITS, tooDeepMessage } from './limits';
import type { SourcePosition } from './model';
import { quote, syntaxError } from './syntax-error';

/** Where one value (and its key, inside an object) is in the source. */
export interface JsonEntry {
  key?: SourcePosition;
  value: SourcePosition;
  /** [start, end) of the value's source when it is a string (quotes included). */
  string?: [number, number];
}

/** Entries are kept for paths up to this length: root, section, item, command, parameter. */
const RECORDED_PATH_LENGTH = 4;

/** The map key of a path (segments are prefixed so that [] and [''] differ). */
export function pathKey(path: readonly (string | number)[]): string {
  let key = '';
  for (const segment of path) key += `\u0000${segment}`;
  return key;
}

interface Frame {
  kind: 'object' | 'array';
  keys?: Set<string>;
  count: number;
  /** The `pathKey` of the frame's own path while it is short enough to record; undefined below that. */
  path?: string;
  /** The length of that path. */
  depth: number;
  key?: string;
  keyAt?: SourcePosition;
}

type Expect = 'value' | 'valueOrClose' | 'key' | 'keyOrClose' | 'colon' | 'afterValue';

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS = ['true', 'false', 'null'];
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

class JsonScanner {
  private i = 0;
  private line = 1;
  private lineStart = 0;
  private readonly stack: Frame[] = [];
  readonly entries = new Map<string, JsonEntry>();

  constructor(private readonly text: string) {}

  private here(): SourcePosition {
    return { line: this.line, column: this.i - this.lineStart + 1 };
  }

  private fail(message: string, hint?: string): never {
    throw syntaxError(message, this.here(), { hint });
  }

  private found(): string {
    if (this.i >= this.text.length) return 'the end of the input';
    const ch = this.text[this.i]!;
    return ch === '\n' || ch === '\r' ? 'a line break' : quote(ch);
  }

  private skipWhitespace(): void {
    const { text } = this;
    for (; this.i < text.length; this.i++) {
      const ch = text.charCodeAt(this.i);
      if (ch === 10) {
        this.line++;
        this.lineStart = this.i + 1;
      } else if (ch !== 32 && ch !== 9 && ch !== 13) {
        return;
      }
    }
  }

  /** Scans a string starting at the opening quote; returns its end (after the closing quote). */
  private scanString(): number {
    const { text } = this;
    const start = this.i;
    for (let j = start + 1; j < text.length; j++) {
      const ch = text.charCodeAt(j);
      if (ch === 34) return j + 1;
      if (ch < 0x20) {
        this.i = j;
        const what = ch === 10 ? 'a line break' : 'a control character';
        this.fail(`A string cannot hold ${what}`, 'write it as an escape such as \\n');
      }
      if (ch === 92) {
        const next = text[j + 1] ?? '';
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(j + 2, j + 6))) {
            this.i = j;
            this.fail('Invalid \\u escape in a string (it needs four hex digits)');
          }
          j += 5;
        } else if (ESCAPES.has(next)) {
          j++;
        } else {
          this.i = j;
          this.fail(`Invalid escape ${quote(`\\${next}`)} in a string`);
        }
      }
    }
    this.i = start;
    return this.fail('Unterminated string');
  }

  private keyText(start: number, end: number): string {
    const raw = this.text.slice(start, end);
    return raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
  }

  /** The path key of the value about to be read, when its path is short enough to record. */
  private childPath(): string | undefined {
    const top = this.stack[this.stack.length - 1];
    if (!top) return '';
    if (top.path === undefined || top.depth >= RECORDED_PATH_LENGTH) return undefined;
    return `${top.path}\u0000${top.kind === 'array' ? top.count : top.key!}`;
  }

  /** Records where the value about to be read is, when its path is short enough. */
  private record(string?: [number, number]): void {
    const path = this.childPath();
    if (path === undefined) return;
    const top = this.stack[this.stack.length - 1];
    const entry: JsonEntry = { value: this.here() };
    if (top?.kind === 'object') entry.key = top.keyAt;
    if (string) entry.string = string;
    this.entries.set(path, entry);
  }

  private open(kind: Frame['kind']): void {
    if (this.stack.length + 1 > PIPELINE_LIMITS.maxDepth) this.fail(tooDeepMessage());
    const frame: Frame = { kind, count: 0, depth: this.stack.length };
    const path = this.childPath();
    if (path !== undefined) frame.path = path;
    if (kind === 'object') frame.keys = new Set();
    this.stack.push(frame);
    this.i++;
  }

  /** Reads one scalar value at the cursor, or opens a container; returns the next expectation. */
  private value(): Expect {
    const { text } = this;
    const ch = text[this.i];
    if (ch === '{' || ch === '[') {
      this.record();
      this.open(ch === '{' ? 'object' : 'array');
      return ch === '{' ? 'keyOrClose' : 'valueOrClose';
    }
    if (ch === '"') {
      const start = this.i;
      const end = this.scanString();
      this.record([start, end]);
      this.i = end;
      return 'afterValue';
    }
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) {
      NUMBER.lastIndex = this.i;
      const match = NUMBER.exec(text);
      if (!match) this.fail(`Invalid number, found ${this.found()}`);
      this.record();
      this.i += match[0].length;
      return 'afterValue';
    }
    const literal = LITERALS.find((word) => text.startsWith(word, this.i));
    if (literal) {
      this.record();
      this.i += literal.length;
      return 'afterValue';
    }
    return this.fail(`Expected a value, found ${this.found()}`);
  }

  private close(): Expect {
    this.stack.pop();
    this.i++;
    return 'afterValue';
  }

  scan(): void {
    const { text } = this;
    let expect: Expect = 'value';
    for (;;) {
      this.skipWhitespace();
      const top = this.stack[this.stack.length - 1];
      if (this.i >= text.length) {
        if (!top && expect === 'afterValue') return;
        this.fail(
          `Unexpected end of the input${top ? `: an unclosed ${top.kind === 'object' ? "'{'" : "'['"}` : ''}`,
        );
      }
      const ch = text[this.i];
      switch (expect) {
        case 'valueOrClose':
          expect = ch === ']' ? this.close() : this.value();
          break;
        case 'value':
          if (ch === ']' || ch === '}')
            this.fail(`Expected a value, found ${this.found()}`, 'a trailing comma?');
          expect = this.value();
          break;
        case 'keyOrClose':
        case 'key': {
          if (ch === '}' && expect === 'keyOrClose') {
            expect = this.close();
            break;
          }
          if (ch !== '"') {
            this.fail(
              `Expected a key in double quotes${expect === 'key' ? '' : " or '}'"}, found ${this.found()}`,
            );
          }
          const frame = top!;
          const start = this.i;
          const end = this.scanString();
          const key = this.keyText(start, end);
          if (frame.keys!.has(key)) this.fail(`Duplicate key ${quote(key)}`);
          frame.keys!.add(key);
          frame.key = key;
          frame.keyAt = this.here();
          this.i = end;
          expect = 'colon';
          break;
        }
        case 'colon':
          if (ch !== ':') this.fail(`Expected ':' after the key ${quote(top!.key!)}, found ${this.found()}`);
          this.i++;
          expect = 'value';
          break;
        case 'afterValue': {
          if (!top) this.fail(`Unexpected ${this.found()} after the end of the document`);
          const closer = top.kind === 'object' ? '}' : ']';
          if (ch === ',') {
            if (top.kind === 'array') top.count++;
            this.i++;
            expect = top.kind === 'object' ? 'key' : 'value';
          } else if (ch === closer) {
            expect = this.close();
          } else {
            this.fail(`Expected ',' or '${closer}', found ${this.found()}`);
          }
          break;
        }
      }
    }
  }
}

/**
 * Checks JSON text exactly as JSON.parse would accept it, and also refuses duplicate keys and nesting
 * deeper than `maxDepth`. Returns the positions of values on the first four levels of the document.
 */
export function scanJson(text: string): Map<string, JsonEntry> {
  const scanner = new JsonScanner(text);
  scanner.scan();
  return scanner.entries;
}
