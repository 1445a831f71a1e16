/**
 * Java regular expressions compiled to a program for a Thompson/Pike virtual machine: matching time
 * grows linearly with the input, so no pattern can backtrack catastrophically. Backreferences, lookaround
 * and atomic groups (which need backtracking) are refused by the parser.
 */
import {
  type AssertKind,
  type CharClass,
  type RegexNode,
  RegexSyntaxError,
  parseRegex,
} from './regex-syntax';

export { type CharClass, RegexSyntaxError, classMatches } from './regex-syntax';

export type Inst =
  | { op: 'char'; code: number; alt: number } // alt: the other case, or -1
  | { op: 'class'; cls: CharClass; icase: boolean }
  | { op: 'any'; dotAll: boolean }
  | { op: 'split'; x: number; y: number } // x is preferred
  | { op: 'jmp'; x: number }
  | { op: 'save'; n: number }
  | { op: 'assert'; kind: AssertKind }
  | { op: 'match' };

export interface Program {
  insts: Inst[];
  groups: number; // capturing groups, group 0 excluded
}

const MAX_INSTRUCTIONS = 20_000;

function otherCase(code: number): number {
  const ch = String.fromCharCode(code);
  const lower = ch.toLowerCase();
  const upper = ch.toUpperCase();
  const other = lower !== ch ? lower : upper;
  return other.length === 1 && other !== ch ? other.charCodeAt(0) : -1;
}

class Emitter {
  readonly insts: Inst[] = [];

  private push(inst: Inst): number {
    if (this.insts.length >= MAX_INSTRUCTIONS) throw new RegexSyntaxError('the pattern is too complex');
    this.insts.push(inst);
    return this.insts.length - 1;
  }

  emit(n: RegexNode): void {
    switch (n.t) {
      case 'empty':
        return;
      case 'char':
        this.push({ op: 'char', code: n.code, alt: n.icase ? otherCase(n.code) : -1 });
        return;
      case 'class':
        this.push({ op: 'class', cls: n.cls, icase: n.icase });
        return;
      case 'any':
        this.push({ op: 'any', dotAll: n.dotAll });
        return;
      case 'assert':
        this.push({ op: 'assert', kind: n.kind });
        return;
      case 'group':
        if (n.index !== null) this.push({ op: 'save', n: n.index * 2 });
        this.emit(n.node);
        if (n.index !== null) this.push({ op: 'save', n: n.index * 2 + 1 });
        return;
      case 'concat':
        for (const c of n.nodes) this.emit(c);
        return;
      case 'alt': {
        const jumps: number[] = [];
        n.nodes.forEach((branch, k) => {
          if (k < n.nodes.length - 1) {
            const split = this.push({ op: 'split', x: 0, y: 0 });
            (this.insts[split] as { x: number }).x = split + 1;
            this.emit(branch);
            jumps.push(this.push({ op: 'jmp', x: 0 }));
            (this.insts[split] as { y: number }).y = this.insts.length;
          } else this.emit(branch);
        });
        for (const j of jumps) (this.insts[j] as { x: number }).x = this.insts.length;
        return;
      }
      case 'repeat':
        this.repeat(n);
    }
  }

  private split(lazy: boolean, here: number, there: number): Inst {
    return lazy ? { op: 'split', x: there, y: here } : { op: 'split', x: here, y: there };
  }

  private repeat(n: Extract<RegexNode, { t: 'repeat' }>): void {
    for (let k = 0; k < n.min; k++) this.emit(n.node);
    if (n.max === Infinity) {
      const loop = this.push({ op: 'split', x: 0, y: 0 });
      this.emit(n.node);
      this.push({ op: 'jmp', x: loop });
      this.insts[loop] = this.split(n.lazy, loop + 1, this.insts.length);
      return;
    }
    const splits: number[] = [];
    for (let k = n.min; k < n.max; k++) {
      splits.push(this.push({ op: 'split', x: 0, y: 0 }));
      this.emit(n.node);
    }
    for (const s of splits) this.insts[s] = this.split(n.lazy, s + 1, this.insts.length);
  }
}

/** Compiles a Java pattern; throws RegexSyntaxError for bad or unsupported syntax. */
export function compileRegex(pattern: string): Program {
  const { node, groups } = parseRegex(pattern);
  const e = new Emitter();
  e.emit(node);
  e.insts.push({ op: 'match' });
  return { insts: e.insts, groups };
}
