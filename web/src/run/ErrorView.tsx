/** A failed run as one readable message: code, message, the step, and a link to the line and column. */
import type { ApiError } from '../api';
import styles from './run.module.css';

export interface ErrorViewProps {
  error: ApiError;
  onReveal?(line: number, column: number): void;
}

/** PEL messages start with the place inside the expression ("1:13: ..."); the link gives the real place. */
function readable(message: string, placed: boolean): string {
  return placed ? message.replace(/^\d+:\d+:\s*/, '') : message;
}

interface Problem {
  code: string;
  message: string;
  line?: number;
  column?: number;
}

/** The validator's problems of a run refused before its first step (`value.problems`), when there are several. */
function problemsOf(value: Record<string, unknown>): Problem[] {
  const list = value.problems;
  return Array.isArray(list) && list.length > 1 ? (list as Problem[]) : [];
}

export function ErrorView({ error, onReveal }: ErrorViewProps) {
  const { code, line, column, commandName, commandIndex } = error.value;
  const problems = problemsOf(error.value);
  const message = problems.length
    ? `${problems.length} problems were found before the run: nothing ran.`
    : readable(error.value.message, line !== undefined);
  return (
    <div className={styles.error} role="alert" data-testid="run-error">
      <div className={styles.errorHead}>
        <span className={styles.errorCode}>{code}</span>
        {line !== undefined && (
          <button
            type="button"
            className={styles.errorLink}
            onClick={() => onReveal?.(line, column ?? 1)}
            title="Show in the editor"
          >
            line {line}, column {column ?? 1}
          </button>
        )}
        {commandName && (
          <span className={styles.errorStep}>
            step {commandIndex !== undefined ? commandIndex + 1 : '?'} · {commandName}
          </span>
        )}
      </div>
      <p className={styles.errorMessage}>{message}</p>
      {problems.length > 0 && (
        <ul className={styles.errorProblems} aria-label="Problems" data-testid="run-problems">
          {problems.map((p, i) => (
            <li key={i}>
              {p.line !== undefined && (
                <button
                  type="button"
                  className={styles.errorLink}
                  onClick={() => onReveal?.(p.line!, p.column ?? 1)}
                  title="Show in the editor"
                >
                  line {p.line}, column {p.column ?? 1}
                </button>
              )}{' '}
              <span className={styles.errorCode}>{p.code}</span> {readable(p.message, p.line !== undefined)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
