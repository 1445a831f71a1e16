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

export function ErrorView({ error, onReveal }: ErrorViewProps) {
  const { code, line, column, commandName, commandIndex } = error.value;
  const message = readable(error.value.message, line !== undefined);
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
    </div>
  );
}
