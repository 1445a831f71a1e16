/** Asks for a key (moving a property) or a key, type and value (creating one); shows the server's refusal. */
import { useState } from 'react';
import { errorText } from '../api/error-text';
import { Modal } from './Modal';
import styles from '../properties.module.css';

export interface KeyDialogValues {
  key: string;
  type: string;
  value: string;
}

interface KeyDialogProps {
  title: string;
  submitLabel: string;
  initialKey: string;
  /** Also asks for type and value (creation). */
  withContent?: boolean;
  onSubmit(values: KeyDialogValues): Promise<void>;
  onClose(): void;
}

const TYPES = ['text/plain', 'application/json', 'application/yaml', 'application/xml', 'text/markdown'];

export function KeyDialog({
  title,
  submitLabel,
  initialKey,
  withContent,
  onSubmit,
  onClose,
}: KeyDialogProps) {
  const [values, setValues] = useState<KeyDialogValues>({ key: initialKey, type: 'text/plain', value: '' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set = (field: keyof KeyDialogValues) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: e.target.value }));
  const submit = () => {
    setBusy(true);
    setError(null);
    onSubmit({ ...values, key: values.key.trim() }).then(onClose, (e: unknown) => {
      setBusy(false);
      setError(errorText(e));
    });
  };
  return (
    <Modal
      title={title}
      onSubmit={submit}
      onClose={onClose}
      actions={
        <>
          <button type="button" className={styles.button} onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className={`${styles.button} ${styles.primary}`}
            disabled={busy || values.key.trim() === ''}
          >
            {submitLabel}
          </button>
        </>
      }
    >
      <label className={styles.field}>
        Key
        <input autoFocus value={values.key} onChange={set('key')} spellCheck={false} />
      </label>
      {withContent && (
        <>
          <label className={styles.field}>
            Type
            <input list="property-types" value={values.type} onChange={set('type')} spellCheck={false} />
            <datalist id="property-types">
              {TYPES.map((t) => (
                <option key={t} value={t} />
              ))}
            </datalist>
          </label>
          <label className={styles.field}>
            Value
            <textarea rows={6} value={values.value} onChange={set('value')} spellCheck={false} />
          </label>
        </>
      )}
      {error && (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      )}
    </Modal>
  );
}
