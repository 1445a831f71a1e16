/** `pi test`: runs app tests on the server (test.run) and reports them for people, --json or JUnit XML. */
import { writeFileSync } from 'node:fs';
import type { TestReport } from '../../shared/app-tests/test-report';
import { command, type CliSettings } from './cli-client';
import type { Register, VerbContext } from './cli-context';
import { EXIT } from './exit-codes';
import { junitXml } from './junit';

export const DEFAULT_TEST_PATTERN = 'global/app/*/test/**';

/** A bare app name (`orders`) means that app's tests; anything with a `/` is a key pattern. */
export function testPattern(argument: string | undefined): string {
  if (!argument) return DEFAULT_TEST_PATTERN;
  return argument.includes('/') ? argument : `global/app/${argument}/test/**`;
}

/** Runs the tests; `writes` grants key patterns they may change beside their app folder (test.run `writes`). */
export function runTests(settings: CliSettings, pattern: string, writes?: string): Promise<TestReport> {
  return command<TestReport>(settings, 'test.run', writes ? { pattern, writes } : { pattern });
}

/** Prints a report for people: one row per test, the failures with their place, then the totals. */
export function printReport(ctx: VerbContext, report: TestReport): void {
  const { out } = ctx;
  if (report.total === 0) {
    out.note('No tests found.');
    return;
  }
  out.table(
    ['RESULT', 'TIME', 'TEST'],
    report.tests.map((t) => [t.result, `${t.durationMs} ms`, t.key]),
  );
  const problems = report.tests.filter((t) => t.result !== 'passed');
  for (const t of problems) {
    const where = t.line ? `${t.key}:${t.line}:${t.column ?? 1}` : t.key;
    out.line('');
    out.line(`${out.paint(t.result.toUpperCase(), 'red')} ${where}`);
    out.line(`  ${t.message ?? ''}`);
  }
  out.line('');
  const summary = `${report.passed} passed, ${report.failed} failed, ${report.total} total (${report.durationMs} ms)`;
  out.line(out.paint(summary, report.failed ? 'red' : 'green'));
}

/** Writes the JUnit file when asked, prints the report, and gives the exit code: 1 when a test did not pass. */
export function finishTests(ctx: VerbContext, report: TestReport, junit?: string): number {
  if (junit) writeFileSync(junit, junitXml(report));
  if (ctx.out.json) ctx.out.data(report);
  else printReport(ctx, report);
  return report.failed > 0 ? EXIT.failed : EXIT.ok;
}

export const registerTestVerbs: Register = (program, action) => {
  program
    .command('test')
    .description(`Run app tests on the server (default ${DEFAULT_TEST_PATTERN}; an app name means its tests)`)
    .argument('[pattern]', 'a key pattern of tests, or an app name')
    .option('--junit <file>', 'also write the report as JUnit XML to FILE (for CI)')
    .option(
      '--writes <patterns>',
      'key patterns (comma-separated) the tests may change beside their app folder',
    )
    .action(
      action(async (ctx, pattern: string | undefined, options: { junit?: string; writes?: string }) => {
        const report = await runTests(ctx.settings(), testPattern(pattern), options.writes);
        return finishTests(ctx, report, options.junit);
      }),
    );
};
