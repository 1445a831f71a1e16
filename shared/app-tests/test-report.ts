/** The report of `test.run`: one entry per test pipeline and the totals. Read by the CLI and the workbench. */

export type TestResult = 'passed' | 'failed' | 'error';

export interface TestCaseReport {
  name: string;
  key: string;
  result: TestResult;
  durationMs: number;
  /** `CODE: text` of the failure or error. */
  message?: string;
  line?: number;
  column?: number;
}

/** `failed` counts the tests that did not pass: failed assertions and errors alike. */
export interface TestReport {
  total: number;
  passed: number;
  failed: number;
  durationMs: number;
  tests: TestCaseReport[];
}
