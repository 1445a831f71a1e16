/**
 * The regex engine (re2js, shared/pel/regex.ts) against the hand-written Pike VM it replaced
 * (bench/support/replaced-regex), on the PEL conformance cases of shared/pel/cases/regex.json and on three
 * workloads of realistic size, one of them hostile.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BenchReport, compareOpsPerSecond } from './bench-report';
import * as replaced from './support/replaced-regex/regex';
import { PROJECT_ROOT } from './support/project-root';
import { DEFAULT_PEL_LIMITS } from '../shared/pel';
import * as ours from '../shared/pel/regex';
import { createRuntime } from '../shared/pel/runtime';

type Engine = Pick<typeof ours, 'regexFullMatch' | 'regexReplace' | 'regexSplit'>;
/** One regex call of a case, run on a given engine. */
type Call = (engine: Engine) => unknown;

const rt = createRuntime({ body: null, vars: {}, headers: {} }, undefined, {
  ...DEFAULT_PEL_LIMITS,
  maxRegexWork: Number.MAX_SAFE_INTEGER,
  matchesTimeoutMs: 60_000,
  maxEvaluationMs: 60_000,
});
const site = { source: '', start: 0, end: 0 };

/** The calls of the regex conformance cases that succeed (`'text' matches 'p'`, replaceAll, split...). */
function conformanceCalls(): Call[] {
  const cases = JSON.parse(readFileSync(join(PROJECT_ROOT, 'shared/pel/cases/regex.json'), 'utf8')) as {
    expr: string;
    error?: string;
  }[];
  const calls: Call[] = [];
  for (const { expr, error } of cases) {
    if (error) continue;
    let m = /^'(.*)' matches '(.*)'$/s.exec(expr) ?? /^'(.*)'\.matches\('(.*)'\)$/s.exec(expr);
    if (m) {
      const [, text, pattern] = m as unknown as [string, string, string];
      calls.push((e) => e.regexFullMatch(pattern, text, rt, site));
      continue;
    }
    m = /^'(.*)'\.(replaceAll|replaceFirst)\('(.*)', '(.*)'\)$/s.exec(expr);
    if (m) {
      const [, text, method, pattern, replacement] = m as unknown as [string, string, string, string, string];
      calls.push((e) => e.regexReplace(pattern, text, replacement, method === 'replaceAll', rt, site));
      continue;
    }
    m = /^'(.*)'\.split\('(.*)'(?:, (-?\d+))?\)$/s.exec(expr);
    if (m) {
      const [, text, pattern, limit] = m as unknown as [string, string, string, string | undefined];
      calls.push((e) => e.regexSplit(pattern, text, Number(limit ?? 0), rt, site));
    }
  }
  return calls;
}

const addresses = Array.from({ length: 1000 }, (_v, i) => `user.${i}+tag@host-${i % 7}.example.com`);
const prose = Array.from({ length: 1500 }, (_v, i) => `word${i}${' '.repeat((i % 3) + 1)}`).join('');

const workloads: { name: string; calls: Call[] }[] = [
  { name: 'the PEL regex conformance cases', calls: conformanceCalls() },
  {
    name: 'matches an e-mail pattern, 1,000 addresses',
    calls: [(e) => addresses.every((a) => e.regexFullMatch('[\\w.+-]+@[\\w-]+\\.[\\w.]+', a, rt, site))],
  },
  {
    name: `replaceAll \\s+ in ${Math.round(prose.length / 1000)} KB of text`,
    calls: [(e) => e.regexReplace('\\s+', prose, ' ', true, rt, site)],
  },
  {
    name: '(x+x+)+y over 5,000 characters (hostile)',
    calls: [(e) => e.regexFullMatch('(x+x+)+y', 'x'.repeat(5000), rt, site)],
  },
];

export default async function regexBench(report: BenchReport): Promise<void> {
  for (const { name, calls } of workloads) {
    const run = (engine: Engine) => (): void => {
      for (const call of calls) call(engine);
    };
    const { ours: o, baseline } = compareOpsPerSecond(run(ours), run(replaced), 5, 150);
    report.add({
      name: `regex (re2js) ${name}`,
      value: o,
      unit: 'ops/s',
      baseline: 'replaced hand-written engine',
      baselineValue: baseline,
    });
  }
  await Promise.resolve();
}
