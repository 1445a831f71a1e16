/** Asks for a key (moving a property) or a key, type and value (creating one); shows the server's refusal. */
import { useState } from 'react';
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
  const set = (field: keyof KeyDialogValues) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: e.target.value }));
  return (
    <Modal
      title={title}
      submitLabel={submitLabel}
      submitStyle="primary"
      submitDisabled={values.key.trim() === ''}
      onSubmit={() => onSubmit({ ...values, key: values.key.trim() })}
      onClose={onClose}
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
    </Modal>
  );
}
