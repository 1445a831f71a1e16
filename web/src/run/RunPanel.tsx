/** Below the editor: the last run's result (or error), its trace, and the expression console. */
import { memo, useMemo, useState } from 'react';
import { ExpressionConsole, type ConsoleAt } from '../console/ExpressionConsole';
import { ErrorView } from './ErrorView';
import { ResultView } from './ResultView';
import { TraceView } from './TraceView';
import type { RunOutcome } from './run-types';
import { topLevelSteps } from './top-level-steps';
import type { PipelineRun } from './useRun';
import styles from './run.module.css';

type Tab = 'result' | 'trace' | 'console';

const TABS: { tab: Tab; label: string }[] = [
  { tab: 'result', label: 'Result' },
  { tab: 'trace', label: 'Trace' },
  { tab: 'console', label: 'Console' },
];

function Summary({ run }: { run: PipelineRun }) {
  const outcome: RunOutcome | undefined = run.outcome;
  if (run.running) {
    return (
      <span className={styles.summaryRunning} role="status">
        Running{run.runningFrom !== undefined ? ` from step ${run.runningFrom + 1}` : ''}…
      </span>
    );
  }
  if (!outcome) return <span className={styles.summaryIdle}>Not run yet · Ctrl+Enter runs the pipeline</span>;
  const from = outcome.fromStep > 0 ? ` · from step ${outcome.fromStep + 1}` : '';
  if (!outcome.ok) {
    return (
      <span className={styles.summaryFailed} role="status" data-testid="run-summary">
        Failed · {outcome.error.value.code}
        {from}
      </span>
    );
  }
  return (
    <span className={styles.summaryOk} role="status" data-testid="run-summary">
      Done · {outcome.stepsExecuted} step{outcome.stepsExecuted === 1 ? '' : 's'} · {outcome.durationMs} ms
      {from}
    </span>
  );
}

/** Memoised: typing in the editor re-renders the workbench, and the trace need not follow. */
export const RunPanel = memo(function RunPanel({
  run,
  onReveal,
}: {
  run: PipelineRun;
  onReveal(line: number, column: number): void;
}) {
  const [tab, setTab] = useState<Tab>('result');
  const [consoleAt, setConsoleAt] = useState<ConsoleAt>('final');
  const outcome = run.outcome;
  const topLevel = useMemo(
    () => (outcome ? topLevelSteps(outcome.source, outcome.form) : new Set<number>()),
    [outcome],
  );
  const inspect = (position: number) => {
    setConsoleAt(position);
    setTab('console');
  };

  return (
    <section className={styles.panel} aria-label="Run">
      <div className={styles.panelHead}>
        <div role="tablist" className={styles.tabs}>
          {TABS.map(({ tab: t, label }) => (
            <button
              key={t}
              type="button"
              role="tab"
              aria-selected={t === tab}
              className={styles.tab}
              onClick={() => setTab(t)}
            >
              {label}
              {t === 'trace' && outcome && outcome.trace.length > 0 && (
                <span className={styles.badge}>{outcome.trace.length}</span>
              )}
            </button>
          ))}
        </div>
        <Summary run={run} />
      </div>
      <div className={styles.panelBody} role="tabpanel">
        {tab === 'result' &&
          (outcome ? (
            outcome.ok ? (
              <ResultView body={outcome.body} />
            ) : (
              <ErrorView error={outcome.error} onReveal={onReveal} />
            )
          ) : (
            <p className={styles.muted}>Run the pipeline to see its result here.</p>
          ))}
        {tab === 'trace' &&
          (outcome ? (
            <>
              {!outcome.ok && <ErrorView error={outcome.error} onReveal={onReveal} />}
              <TraceView
                trace={outcome.trace}
                topLevel={topLevel}
                onRunFrom={run.runFrom}
                onInspect={inspect}
                running={run.running}
              />
            </>
          ) : (
            <p className={styles.muted}>
              Each step of the next run appears here with its parameters, input and output.
            </p>
          ))}
        {tab === 'console' && <ExpressionConsole outcome={outcome} at={consoleAt} onAt={setConsoleAt} />}
      </div>
    </section>
  );
});
