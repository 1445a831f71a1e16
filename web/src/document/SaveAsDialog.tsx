/** "Save as": stores the pipeline as a new property; an existing key is refused, never overwritten. */
import { useState, type FormEvent } from 'react';
import { ApiError, errorText } from '../api';

export interface SaveAsDialogProps {
  initialKey: string;
  onSave(key: string): Promise<void>;
  onClose(): void;
}

function problemText(error: unknown): string {
  if (error instanceof ApiError && error.value.code === 'PROPERTY_EXISTS')
    return 'A property with this key exists already: choose another key.';
  return errorText(error);
}

export function SaveAsDialog({ initialKey, onSave, onClose }: SaveAsDialogProps) {
  const [key, setKey] = useState(initialKey);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      await onSave(key.trim());
      onClose();
    } catch (error) {
      setProblem(problemText(error));
      setBusy(false);
    }
  };

  return (
    <div className="wb-modal-backdrop">
      <form
        className="wb-modal wb-save-as"
        role="dialog"
        aria-modal="true"
        aria-labelledby="save-as-title"
        onSubmit={submit}
        onKeyDown={(e) => e.key === 'Escape' && onClose()}
      >
        <h2 id="save-as-title">Save the pipeline as</h2>
        <label className="wb-field">
          Key
          <input
            value={key}
            onChange={(e) => setKey(e.target.value)}
            spellCheck={false}
            autoFocus
            aria-describedby="save-as-hint"
          />
        </label>
        <p id="save-as-hint" className="wb-hint">
          Apps keep their pipelines under <code>global/app/&lt;app&gt;/pipeline/</code>.
        </p>
        {problem && (
          <p className="wb-doc-problem" role="alert">
            {problem}
          </p>
        )}
        <div className="wb-modal-actions">
          <button type="button" className="wb-button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="wb-button wb-primary" disabled={busy || !key.trim()}>
            Save
          </button>
        </div>
      </form>
    </div>
  );
}
