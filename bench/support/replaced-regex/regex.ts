/**
 * The hand-written engine that re2js replaced (shared/pel/regex*.ts before the change), kept only as the
 * baseline of the regex bench row; nothing else imports it.
 */
/**
 * Regular expressions for `matches`, `split` and `replaceAll`: Java syntax run by a Pike virtual machine,
 * linear in the input and bounded by `matchesTimeoutMs`, so no pattern can hang the server.
 */
import { type Site, pelError } from '../../../shared/pel/errors';
import {
  type CharClass,
  type Inst,
  type Program,
  RegexSyntaxError,
  classMatches,
  compileRegex,
} from './regex-compile';
import { type Runtime, checkClock } from '../../../shared/pel/runtime';
import { LruCache } from '../../../shared/values/lru-cache';

/** Compiled patterns, weighed by pattern length plus program size (a program is at most 20,000 instructions). */
const programs = new LruCache<Program>(500, 2_000_000);

function programFor(pattern: string, site: Site | null): Program {
  let p = programs.get(pattern);
  if (!p) {
    try {
      p = compileRegex(pattern);
    } catch (e) {
      if (e instanceof RegexSyntaxError) throw pelError('BAD_REGEX', site, e.message);
      throw e;
    }
    programs.set(pattern, p, pattern.length + p.insts.length * 4);
  }
  return p;
}

const LINE_TERMINATORS = new Set([10, 13, 0x85, 0x2028, 0x2029]);

function isWord(code: number): boolean {
  return (
    (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95
  );
}

function assertHolds(kind: Extract<Inst, { op: 'assert' }>['kind'], s: string, sp: number): boolean {
  const n = s.length;
  switch (kind) {
    case 'bol':
    case 'start':
      return sp === 0;
    case 'end':
      return sp === n;
    case 'eol':
    case 'endz':
      return (
        sp === n ||
        (sp === n - 1 && LINE_TERMINATORS.has(s.charCodeAt(sp))) ||
        (sp === n - 2 && s.endsWith('\r\n'))
      );
    case 'mbol':
      return (
        sp === 0 ||
        (LINE_TERMINATORS.has(s.charCodeAt(sp - 1)) &&
          !(s.charCodeAt(sp - 1) === 13 && s.charCodeAt(sp) === 10))
      );
    case 'meol':
      return sp === n || LINE_TERMINATORS.has(s.charCodeAt(sp));
    default: {
      const before = sp > 0 && isWord(s.charCodeAt(sp - 1));
      const after = sp < n && isWord(s.charCodeAt(sp));
      return (before !== after) === (kind === 'word');
    }
  }
}

function classTest(cls: CharClass, icase: boolean, code: number, s: string, sp: number): boolean {
  const ch = s[sp]!;
  if (classMatches(cls, code, ch)) return true;
  if (!icase) return false;
  const lower = ch.toLowerCase();
  const upper = ch.toUpperCase();
  return (
    (lower !== ch && classMatches(cls, lower.charCodeAt(0), lower)) ||
    (upper !== ch && classMatches(cls, upper.charCodeAt(0), upper))
  );
}

const stepCosts = new WeakMap<Program, number>();

/**
 * What one thread step can cost at most, in simple comparisons: a class of 300,000 ranges is 300,000 of
 * them, so the clock must be read that much more often for the time bound to hold.
 */
function stepCostOf(prog: Program): number {
  let cost = stepCosts.get(prog);
  if (cost === undefined) {
    cost = 1;
    for (const inst of prog.insts) {
      if (inst.op === 'class') cost = Math.max(cost, inst.cls.ranges.length / 2 + 16 * inst.cls.tests.length);
    }
    stepCosts.set(prog, cost);
  }
  return cost;
}

/** A bounded clock: the VM reads it every few thousand steps (weighed by what a step costs). */
class Budget {
  private work = 0;
  private readonly deadline: number;
  private readonly weight: number;
  constructor(
    private readonly ms: number,
    private readonly site: Site | null,
    prog: Program,
  ) {
    this.deadline = performance.now() + ms;
    this.weight = stepCostOf(prog);
  }
  spend(units: number): void {
    this.work += units * this.weight;
    if (this.work > 4096) {
      this.work = 0;
      if (performance.now() > this.deadline) throw pelError('TIMEOUT', this.site, this.ms);
    }
  }
}

/** Threads of the capturing VM: instruction indexes and their capture arrays, in priority order. */
class ThreadList {
  readonly pcs: Int32Array;
  readonly caps: number[][];
  length = 0;
  constructor(size: number) {
    this.pcs = new Int32Array(size);
    this.caps = new Array<number[]>(size);
  }
}

/**
 * Runs the program from `start` and returns the capture positions of the leftmost-first match (the one
 * Java and Perl choose among alternatives), or null. Threads run in priority order (Pike's VM).
 */
function search(prog: Program, s: string, start: number, budget: Budget): number[] | null {
  const insts = prog.insts;
  const size = insts.length;
  const nCaps = (prog.groups + 1) * 2;
  let clist = new ThreadList(size);
  let nlist = new ThreadList(size);
  const seen = new Int32Array(size).fill(-1);
  const stackPc = new Int32Array(size * 2 + 2);
  const stackCaps = new Array<number[]>(size * 2 + 2);
  let generation = 1;
  let matched: number[] | null = null;

  const add = (list: ThreadList, pc0: number, caps0: number[], sp: number): void => {
    let top = 0;
    stackPc[top] = pc0;
    stackCaps[top++] = caps0;
    while (top > 0) {
      const pc = stackPc[--top]!;
      const caps = stackCaps[top]!;
      if (seen[pc] === generation) continue;
      seen[pc] = generation;
      const inst = insts[pc]!;
      switch (inst.op) {
        case 'jmp':
          stackPc[top] = inst.x;
          stackCaps[top++] = caps;
          break;
        case 'split':
          stackPc[top] = inst.y;
          stackCaps[top++] = caps;
          stackPc[top] = inst.x;
          stackCaps[top++] = caps;
          break;
        case 'save': {
          const copy = caps.slice();
          copy[inst.n] = sp;
          stackPc[top] = pc + 1;
          stackCaps[top++] = copy;
          break;
        }
        case 'assert':
          if (assertHolds(inst.kind, s, sp)) {
            stackPc[top] = pc + 1;
            stackCaps[top++] = caps;
          }
          break;
        default:
          list.pcs[list.length] = pc;
          list.caps[list.length++] = caps;
      }
    }
  };

  for (let sp = start; sp <= s.length; sp++) {
    // Threads for this position were added under the current generation; the new start thread (lowest
    // priority, so appended last) joins them without duplicating one.
    if (matched === null) {
      const caps = new Array<number>(nCaps).fill(-1);
      caps[0] = sp;
      add(clist, 0, caps, sp);
    }
    if (clist.length === 0) {
      if (matched !== null) break;
      generation++;
      continue;
    }
    budget.spend(clist.length);
    generation++;
    const code = sp < s.length ? s.charCodeAt(sp) : -1;
    for (let k = 0; k < clist.length; k++) {
      const pc = clist.pcs[k]!;
      const inst = insts[pc]!;
      let ok = false;
      switch (inst.op) {
        case 'match':
          matched = clist.caps[k]!.slice();
          matched[1] = sp;
          k = clist.length; // lower-priority threads are cut off
          continue;
        case 'char':
          ok = code === inst.code || (code !== -1 && code === inst.alt);
          break;
        case 'any':
          ok = code !== -1 && (inst.dotAll || !LINE_TERMINATORS.has(code));
          break;
        case 'class':
          ok = code !== -1 && classTest(inst.cls, inst.icase, code, s, sp);
          break;
        default:
          break;
      }
      if (ok) add(nlist, pc + 1, clist.caps[k]!, sp + 1);
    }
    [clist, nlist] = [nlist, clist];
    nlist.length = 0;
  }
  return matched;
}

/**
 * Whole-text match without captures: the set of live instructions advances one character at a time
 * (Thompson's simulation), with typed arrays and no allocation per step.
 */
function fullMatch(prog: Program, s: string, budget: Budget): boolean {
  const insts = prog.insts;
  const size = insts.length;
  let clist = new Int32Array(size);
  let nlist = new Int32Array(size);
  let clen = 0;
  let nlen = 0;
  const seen = new Int32Array(size).fill(-1);
  const stack = new Int32Array(size * 2 + 2);
  let generation = 0;

  const add = (list: Int32Array, len: number, pc0: number, sp: number): number => {
    let top = 0;
    stack[top++] = pc0;
    while (top > 0) {
      const pc = stack[--top]!;
      if (seen[pc] === generation) continue;
      seen[pc] = generation;
      const inst = insts[pc]!;
      if (inst.op === 'jmp') stack[top++] = inst.x;
      else if (inst.op === 'split') {
        stack[top++] = inst.y;
        stack[top++] = inst.x;
      } else if (inst.op === 'save') stack[top++] = pc + 1;
      else if (inst.op === 'assert') {
        if (assertHolds(inst.kind, s, sp)) stack[top++] = pc + 1;
      } else list[len++] = pc;
    }
    return len;
  };

  clen = add(clist, 0, 0, 0);
  for (let sp = 0; ; sp++) {
    if (clen === 0) return false;
    budget.spend(clen);
    if (sp === s.length) {
      for (let k = 0; k < clen; k++) if (insts[clist[k]!]!.op === 'match') return true;
      return false;
    }
    generation++;
    nlen = 0;
    const code = s.charCodeAt(sp);
    for (let k = 0; k < clen; k++) {
      const pc = clist[k]!;
      const inst = insts[pc]!;
      let ok = false;
      if (inst.op === 'char') ok = code === inst.code || code === inst.alt;
      else if (inst.op === 'any') ok = inst.dotAll || !LINE_TERMINATORS.has(code);
      else if (inst.op === 'class') ok = classTest(inst.cls, inst.icase, code, s, sp);
      if (ok) nlen = add(nlist, nlen, pc + 1, sp + 1);
    }
    [clist, nlist] = [nlist, clist];
    clen = nlen;
  }
}

/** Java's String.matches: the whole text must match. */
export function regexFullMatch(pattern: string, text: string, rt: Runtime, site: Site): boolean {
  const prog = programFor(pattern, site);
  const matched = fullMatch(prog, text, new Budget(rt.limits.matchesTimeoutMs, site, prog));
  afterRegex(rt, site);
  return matched;
}

/**
 * Inside a loop (the evaluation's clock runs), a regex call can take up to `matchesTimeoutMs`: the
 * evaluation's time bound is checked after each, not only every 1,024 items.
 */
function afterRegex(rt: Runtime, site: Site): void {
  if (rt.deadline !== 0) checkClock(rt, site);
}

/**
 * The groups of a whole-text match, or null when the text does not match: for utilities that parse with a
 * pattern they build (dates), linear in the text and bounded by `timeoutMs` (errors carry no position).
 */
export function regexGroups(pattern: string, text: string, timeoutMs: number): (string | null)[] | null {
  const prog = programFor(`\\A(?:${pattern})\\z`, null);
  const caps = search(prog, text, 0, new Budget(timeoutMs, null, prog));
  if (!caps) return null;
  const groups: (string | null)[] = [];
  for (let i = 2; i < caps.length; i += 2)
    groups.push(caps[i]! < 0 ? null : text.slice(caps[i], caps[i + 1]));
  return groups;
}

/** Every match, left to right, as Java's Matcher.find does (an empty match moves on by one character). */
function* findAll(pattern: string, text: string, rt: Runtime, site: Site): Generator<number[]> {
  const prog = programFor(pattern, site);
  const budget = new Budget(rt.limits.matchesTimeoutMs, site, prog);
  let pos = 0;
  while (pos <= text.length) {
    const m = search(prog, text, pos, budget);
    if (!m) return;
    yield m;
    pos = m[1] === m[0] ? m[1]! + 1 : m[1]!;
  }
}

/** Java's String.split(regex, limit): no leading empty string from a zero-width match; limit 0 drops trailing empties. */
export function regexSplit(pattern: string, text: string, limit: number, rt: Runtime, site: Site): string[] {
  if (text === '') return [''];
  const out: string[] = [];
  let index = 0;
  for (const m of findAll(pattern, text, rt, site)) {
    if (limit > 0 && out.length === limit - 1) break;
    if (m[1] === 0) continue; // a zero-width match at the beginning
    out.push(text.slice(index, m[0]));
    index = m[1]!;
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
    parts.push(text.slice(index, m[0]), expandReplacement(replacement, m, text, site));
    index = m[1]!;
    if (!all) break;
  }
  afterRegex(rt, site);
  parts.push(text.slice(index));
  return parts.join('');
}

function expandReplacement(replacement: string, caps: number[], text: string, site: Site): string {
  let out = '';
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i]!;
    if (c === '\\' && i + 1 < replacement.length) {
      out += replacement[++i];
    } else if (c === '$') {
      // Java reads as many digits as still name an existing group: with one group, "$12" is $1 then "2".
      const groups = caps.length / 2 - 1;
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
      const from = caps[n * 2]!;
      if (from >= 0) out += text.slice(from, caps[n * 2 + 1]);
      i = j - 1;
    } else out += c;
  }
  return out;
}
