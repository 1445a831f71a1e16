/** An app's test report as a table: totals, then each test with its result, time and failure with its line. */
import type { TestReport } from '../../../../shared/app-tests/test-report';
import styles from '../properties.module.css';

export function TestReportTable({ report }: { report: TestReport }) {
  const failed = report.total - report.passed;
  return (
    <section aria-label="Test report" className={styles.section}>
      <p className={failed > 0 ? styles.reportFailed : styles.reportPassed}>
        {report.passed} of {report.total} passed
        {failed > 0 ? `, ${failed} failed` : ''} · {Math.round(report.durationMs)} ms
      </p>
      <table className={styles.report}>
        <thead>
          <tr>
            <th>Test</th>
            <th>Result</th>
            <th>Time</th>
            <th>Message</th>
          </tr>
        </thead>
        <tbody>
          {report.tests.map((test) => (
            <tr key={test.key}>
              <td title={test.key}>{test.name}</td>
              <td>
                <span className={`${styles.badge} ${styles[test.result] ?? ''}`}>{test.result}</span>
              </td>
              <td>{Math.round(test.durationMs)} ms</td>
              <td>
                {test.line !== undefined && (
                  <span className={styles.muted}>
                    line {test.line}
                    {test.column !== undefined ? `:${test.column}` : ''}{' '}
                  </span>
                )}
                {test.message ?? ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
