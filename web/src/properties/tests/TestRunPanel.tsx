/** "Run tests" for an app's test folder: the report as a table, or the API's error (e.g. no test.run here). */
import { errorText } from '../api/error-text';
import { TestReportTable } from './TestReportTable';
import { useTestRun } from './useTestRun';
import styles from '../properties.module.css';

export function TestRunPanel({ folder }: { folder: string }) {
  const run = useTestRun(folder);
  return (
    <section aria-label="App tests" className={styles.section}>
      <div className={styles.viewActions}>
        <button
          type="button"
          className={`${styles.button} ${styles.primary}`}
          onClick={() => run.mutate()}
          disabled={run.isPending}
        >
          {run.isPending ? 'Running tests…' : 'Run tests'}
        </button>
        <span className={styles.muted}>
          runs <code>{folder}/**</code>
        </span>
      </div>
      {run.error && (
        <p role="alert" className={styles.error}>
          The tests could not run: {errorText(run.error)}
        </p>
      )}
      {run.data && <TestReportTable report={run.data} />}
    </section>
  );
}
