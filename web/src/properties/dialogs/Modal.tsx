/** A modal dialog on the native <dialog> element: focus kept inside, Escape closes, role dialog for assistive tech. */
import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';
import styles from '../properties.module.css';

interface ModalProps {
  title: string;
  children: ReactNode;
  /** The buttons; the submit one runs onSubmit. */
  actions: ReactNode;
  onSubmit(): void;
  onClose(): void;
}

export function Modal({ title, children, actions, onSubmit, onClose }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <dialog ref={ref} className={styles.dialog} aria-label={title} onCancel={onClose}>
      <form onSubmit={submit}>
        <h2>{title}</h2>
        {children}
        <div className={styles.dialogActions}>{actions}</div>
      </form>
    </dialog>
  );
}
