/**
 * The expression console: evaluates `#{...}` against the message (body, vars, headers) of the last run at a
 * chosen step, in the browser, with the shared PEL.
 */
import { useState, type FormEvent } from 'react';
import { JsonTree } from '../run/JsonTree';
import type { RunOutcome, StepMessage } from '../run/run-types';
import { evaluateInMessage, type Evaluation } from './evaluate';
import { ExpressionInput } from './ExpressionInput';
import styles from './console.module.css';

/** Where the console evaluates: a trace row's position, or 'final' (after the last step). */
export type ConsoleAt = number | 'final';

interface HistoryItem {
  id: number;
  expression: string;
  where: string;
  result: Evaluation;
}

function choices(outcome: RunOutcome): { at: ConsoleAt; label: string; message: StepMessage }[] {
  const list: { at: ConsoleAt; label: string; message: StepMessage }[] = [];
  outcome.trace.forEach((entry, position) => {
    if (!entry.message) return;
    const loop = entry.iteration !== undefined ? `, iteration ${entry.iteration + 1}` : '';
    list.push({
      at: position,
      label: `Before step ${entry.index + 1} · ${entry.command}${loop}`,
      message: entry.message,
    });
  });
  if (outcome.ok && outcome.final)
    list.push({ at: 'final', label: 'After the last step', message: outcome.final.message });
  return list;
}

export interface ExpressionConsoleProps {
  outcome?: RunOutcome;
  at: ConsoleAt;
  onAt(at: ConsoleAt): void;
}

export function ExpressionConsole({ outcome, at, onAt }: ExpressionConsoleProps) {
  const [expression, setExpression] = useState('');
  const [history, setHistory] = useState<HistoryItem[]>([]);
  if (!outcome)
    return <p className={styles.empty}>Run the pipeline first: the console evaluates against its steps.</p>;
  const options = choices(outcome);
  if (options.length === 0)
    return <p className={styles.empty}>The last run recorded no step to evaluate against.</p>;
  const chosen = options.find((o) => o.at === at) ?? options[options.length - 1]!;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!expression.trim()) return;
    const result = evaluateInMessage(expression, chosen.message);
    setHistory((h) =>
      [{ id: Date.now() + Math.random(), expression, where: chosen.label, result }, ...h].slice(0, 50),
    );
  };

  return (
    <div className={styles.console}>
      <form className={styles.prompt} onSubmit={submit}>
        <select
          aria-label="Evaluate at"
          value={String(chosen.at)}
          onChange={(e) => onAt(e.target.value === 'final' ? 'final' : Number(e.target.value))}
        >
          {options.map((o) => (
            <option key={String(o.at)} value={String(o.at)}>
              {o.label}
            </option>
          ))}
        </select>
        <ExpressionInput value={expression} onChange={setExpression} message={chosen.message} />
        <button type="submit">Evaluate</button>
      </form>
      <ol className={styles.history} aria-label="Evaluations">
        {history.map((item) => (
          <li key={item.id} className={styles.item} data-testid="console-result">
            <div className={styles.itemHead}>
              <code>{item.expression}</code>
              <span className={styles.where}>{item.where}</span>
            </div>
            {item.result.ok ? (
              <JsonTree value={item.result.value} openDepth={2} label="Value" />
            ) : (
              <p className={styles.failure} role="alert">
                {item.result.code}
                {item.result.column !== undefined ? ` at column ${item.result.column}` : ''}:{' '}
                {item.result.message}
              </p>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}
