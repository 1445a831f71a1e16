/**
 * A modal dialog on the native <dialog> element: focus kept inside, Escape closes, role dialog for assistive tech.
 * It runs the submission: the submit button waits while it is pending, and the server's refusal shows inside.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { errorText } from '../api/error-text';
import styles from '../properties.module.css';

interface ModalProps {
  title: string;
  children: ReactNode;
  submitLabel: string;
  /** The submit button's look: `primary`, or `danger` for what cannot be undone. */
  submitStyle: 'primary' | 'danger';
  /** Also disables the submit button (e.g. while a field is empty). */
  submitDisabled?: boolean;
  /** Closes the dialog once it resolves; a rejection shows as the dialog's error. */
  onSubmit(): Promise<void>;
  onClose(): void;
}

export function Modal({
  title,
  children,
  submitLabel,
  submitStyle,
  submitDisabled,
  onSubmit,
  onClose,
}: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    onSubmit().then(onClose, (e: unknown) => {
      setBusy(false);
      setError(errorText(e));
    });
  };
  return (
    <dialog ref={ref} className={styles.dialog} aria-label={title} onCancel={onClose}>
      <form onSubmit={submit}>
        <h2>{title}</h2>
        {children}
        {error && (
          <p role="alert" className={styles.error}>
            {error}
          </p>
        )}
        <div className={styles.dialogActions}>
          <button type="button" className={styles.button} onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className={`${styles.button} ${styles[submitStyle]}`}
            disabled={busy || submitDisabled}
          >
            {submitLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
