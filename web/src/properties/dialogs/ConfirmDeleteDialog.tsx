/** Asks before a property is deleted; the answer from the server (e.g. FORBIDDEN) shows in the dialog. */
import { useState } from 'react';
import { errorText } from '../api/error-text';
import { Modal } from './Modal';
import styles from '../properties.module.css';

interface ConfirmDeleteDialogProps {
  propertyKey: string;
  onConfirm(): Promise<void>;
  onClose(): void;
}

export function ConfirmDeleteDialog({ propertyKey, onConfirm, onClose }: ConfirmDeleteDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = () => {
    setBusy(true);
    onConfirm().then(onClose, (e: unknown) => {
      setBusy(false);
      setError(errorText(e));
    });
  };
  return (
    <Modal
      title="Delete property"
      onSubmit={confirm}
      onClose={onClose}
      actions={
        <>
          <button type="button" className={styles.button} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className={`${styles.button} ${styles.danger}`} disabled={busy}>
            Delete
          </button>
        </>
      }
    >
      <p>
        Delete <code>{propertyKey}</code> and its attachments? This cannot be undone.
      </p>
      {error && (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      )}
    </Modal>
  );
}
