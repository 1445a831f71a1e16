/** `test.run`: runs the test pipelines under `<app>/test/` (each in isolation) and reports each one's result. */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError, isPipeworkError } from '../../../shared/errors';
import { parsePipeline, type PipelineScript } from '../../../shared/pipeline';
import type { Property } from '../../../shared/property';
import { executePipeline } from '../../pipeline/execute-pipeline';
import type { ServerServices } from '../../services';
import type { Principal } from '../../../shared/auth';
import type { TestCaseReport, TestReport, TestResult } from '../../../shared/app-tests/test-report';
import { readStoredCode } from '../../pipeline/stored-code-run-as';
import { TestRunRegistry } from './test-run-registry';
import { WriteScope, appFolderOf, guardedProperties, keyPatternList } from './test-write-guard';
import { servicesWith } from '../../runs/run-services';

export const DEFAULT_TEST_PATTERN = 'global/app/*/test/**';

function isTestPipeline(property: Property): boolean {
  const type = property.type ?? 'text/plain';
  return type.includes('type=pipeline') || type.includes('yaml');
}

/** The commands a test's `mock.command` steps name literally (so the test may call them before they exist). */
function declaredMocks(script: PipelineScript): Set<string> {
  const names = new Set<string>();
  for (const step of script.steps) {
    if (step.command !== 'mock.command') continue;
    const name = step.params.command ?? step.defaultValue;
    if (typeof name === 'string' && !name.includes('#{')) names.add(name);
  }
  return names;
}

/**
 * Runs one test pipeline with its own mocks and a write guard on its app folder (plus what the runner grants in
 * `writes`), as the runner bound by the test's author: a test never runs with more rights than whoever stored it.
 */
export async function runOneTest(
  services: ServerServices,
  principal: Principal | null,
  property: Property,
  writes: string[] = [],
): Promise<TestCaseReport> {
  const key = property.key.replace(/^\//, '');
  const at = key.indexOf('/test/');
  const name = at >= 0 ? key.slice(at + '/test/'.length) : key;
  const started = Date.now();
  const done = (result: TestResult, error?: unknown): TestCaseReport => {
    const report: TestCaseReport = { name, key, result, durationMs: Date.now() - started };
    if (error !== undefined) {
      if (isPipeworkError(error)) {
        report.message = `${error.code}: ${error.message}`;
        if (typeof error.details.line === 'number') report.line = error.details.line;
        if (typeof error.details.column === 'number') report.column = error.details.column;
      } else {
        report.message = `INTERNAL: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    return report;
  };
  try {
    const { code: stored, runAs } = await readStoredCode(services, principal, key, () =>
      services.properties.get(principal, key),
    );
    const text = stored.value ?? '';
    const script = parsePipeline(text, (stored.type ?? '').includes('json') ? 'json' : 'yaml');
    const appFolder = appFolderOf(key) ?? key;
    const scope = new WriteScope(appFolder, writes, keyPatternList(script.headers.testWrites));
    const view = servicesWith(services, {
      commands: new TestRunRegistry(services.commands, declaredMocks(script)),
      properties: guardedProperties(services.properties, scope),
    });
    await executePipeline(view, script, { principal: runAs });
    return done('passed');
  } catch (error) {
    const failed = isPipeworkError(error) && error.code === 'ASSERTION_FAILED';
    return done(failed ? 'failed' : 'error', error);
  }
}

/** Runs every test pipeline matching the pattern, one after the other, and sums them up. */
export async function runTests(
  services: ServerServices,
  principal: Principal | null,
  pattern: string,
  writes: string[] = [],
): Promise<TestReport> {
  const started = Date.now();
  const properties = (await services.properties.list(principal, pattern)).filter(
    (p) => p.key.includes('/test/') && isTestPipeline(p),
  );
  const tests: TestCaseReport[] = [];
  for (const property of properties) tests.push(await runOneTest(services, principal, property, writes));
  const passed = tests.filter((t) => t.result === 'passed').length;
  return {
    total: tests.length,
    passed,
    failed: tests.length - passed,
    durationMs: Date.now() - started,
    tests,
  };
}

export const testRun = defineCommand<ServerServices>(
  {
    name: 'test.run',
    summary:
      "Runs an app's test pipelines (default global/app/*/test/**), each in isolation; returns a report.",
    description:
      'Every pipeline property whose key has a /test/ folder and matches `pattern` runs on its own, as the caller ' +
      "bound by the test's author (never with more rights than whoever stored the test), with its own mocks " +
      '(mock.command) and able to change properties only inside its app folder and the key patterns in `writes` ' +
      '(a test may narrow this with its header testWrites, never widen it). The report: {total, passed, failed, durationMs, tests: [{name, key, ' +
      "result: 'passed'|'failed'|'error', durationMs, message?, line?, column?}]}; failed counts failed and error. " +
      'A failed test assertion is failed, any other error is error.',
    parameters: {
      pattern: {
        type: 'string',
        default: DEFAULT_TEST_PATTERN,
        description: 'A key pattern for the tests, e.g. global/app/orders/test/**.',
      },
      writes: {
        type: ['array', 'string'],
        items: { type: 'string' },
        description:
          "Key patterns the tests may change beside their app folder (a list or comma-separated), e.g. global/shared/**; the runner's own folder rules still apply.",
      },
    },
    defaultParameter: 'pattern',
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'developer',
    examples: [
      { title: "Run one app's tests", pipeline: 'pipeline:\n  - test.run: global/app/orders/test/**\n' },
    ],
  },
  (ctx) => {
    if (ctx.commands instanceof TestRunRegistry)
      throw new PipeworkError(
        'BAD_REQUEST',
        'test.run cannot run inside a test (it would run the tests again).',
      );
    const pattern =
      typeof ctx.params.pattern === 'string' && ctx.params.pattern !== ''
        ? ctx.params.pattern
        : DEFAULT_TEST_PATTERN;
    return runTests(ctx.services, ctx.principal, pattern, keyPatternList(ctx.params.writes));
  },
);
