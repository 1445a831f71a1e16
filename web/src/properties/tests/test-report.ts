/** The report of `test.run` (one entry per test pipeline, and totals). */

export interface TestResult {
  name: string;
  key: string;
  result: 'passed' | 'failed' | 'error';
  durationMs: number;
  message?: string;
  line?: number;
  column?: number;
}

export interface TestReport {
  total: number;
  passed: number;
  failed: number;
  durationMs: number;
  tests: TestResult[];
}
