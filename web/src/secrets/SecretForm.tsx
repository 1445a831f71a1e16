/** Adds a secret or replaces one's value: the value field is a password field, emptied once saved. */
import { useId, useState, type FormEvent } from 'react';
import { useApi } from '../api';
import { FORMAT_HINTS, SECRET_FORMATS, putSecret, type SecretFormat, type SecretInfo } from './secret-api';
import styles from './secrets.module.css';

interface SecretFormProps {
  /** The secret whose value is replaced; a new one when absent. */
  replacing?: SecretInfo;
  onSaved(info: SecretInfo): void;
  onCancel(): void;
}

export function SecretForm({ replacing, onSaved, onCancel }: SecretFormProps) {
  const api = useApi();
  const [name, setName] = useState(replacing?.name ?? '');
  const [format, setFormat] = useState<SecretFormat>(replacing?.format ?? 'bearer');
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      const saved = await putSecret(api, {
        name,
        format,
        secret: value,
        ...(replacing ? { scope: replacing.scope, scopeName: replacing.scopeName } : {}),
      });
      setValue('');
      onSaved(saved);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className={styles.form}
      onSubmit={(e) => void submit(e)}
      aria-label={replacing ? `Replace ${replacing.name}` : 'Add secret'}
    >
      <div className="wb-field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          value={name}
          onChange={(e) => setName(e.target.value)}
          readOnly={replacing !== undefined}
          required
        />
      </div>
      <div className="wb-field">
        <label htmlFor={`${id}-format`}>Format</label>
        <select
          id={`${id}-format`}
          value={format}
          onChange={(e) => setFormat(e.target.value as SecretFormat)}
        >
          {SECRET_FORMATS.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
      </div>
      <div className="wb-field">
        <label htmlFor={`${id}-secret`}>Secret</label>
        <input
          id={`${id}-secret`}
          type="password"
          autoComplete="off"
          value={value}
          placeholder={FORMAT_HINTS[format]}
          onChange={(e) => setValue(e.target.value)}
          required
        />
      </div>
      <span className="wb-hint">The value cannot be shown again once saved.</span>
      {problem && (
        <p className="wb-doc-problem" role="alert">
          {problem}
        </p>
      )}
      <div className="wb-toolbar-actions">
        <button type="submit" className="wb-button wb-primary" disabled={busy}>
          {replacing ? 'Replace' : 'Add'}
        </button>
        <button type="button" className="wb-button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
