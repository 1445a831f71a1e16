/** The document's toolbar: which pipeline this is, its form, save, run. */
import { useCallback, useEffect, useState } from 'react';
import { PipelineFormSwitch } from '../editor';
import { SaveAsDialog } from './SaveAsDialog';
import type { PipelineDocument } from './useDocument';

export interface DocumentBarProps {
  document: PipelineDocument;
  onRun(): void;
  running: boolean;
  /** A new stored pipeline (Save as): its route. */
  onStored(key: string): void;
  /** Shows the stored pipeline's history (docs/history.md). */
  onHistory?(): void;
}

/** Where "Save as" proposes to store a pipeline: next to the open one, else in an app's pipeline folder. */
function suggestedKey(key: string | undefined): string {
  if (!key) return 'global/app/myapp/pipeline/new-pipeline';
  return key.replace(
    /([^/]*?)(\.pi\.(yaml|yml|json))?$/,
    (_m, name: string, suffix = '') => `${name}-copy${suffix}`,
  );
}

/** Ctrl+S (Cmd+S) saves a stored pipeline instead of the browser saving the page. */
function useSaveShortcut(enabled: boolean, save: () => unknown) {
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void save();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [enabled, save]);
}

export function DocumentBar({ document, onRun, running, onStored, onHistory }: DocumentBarProps) {
  const { doc, switchForm, save, saveAs } = document;
  const [savingAs, setSavingAs] = useState(false);
  const hasKey = !!doc.key;
  const saveOrAsk = useCallback(() => (hasKey ? save() : setSavingAs(true)), [hasKey, save]);
  useSaveShortcut(!doc.busy && !doc.conflict && !savingAs, saveOrAsk);
  const storeAs = async (key: string) => {
    await saveAs(key);
    onStored(key);
  };
  return (
    <div className="wb-toolbar" role="toolbar" aria-label="Pipeline">
      <div className="wb-doc-name" title={doc.key ?? 'A new pipeline (not stored)'}>
        <span className="wb-doc-key" data-testid="document-key">
          {doc.key ?? 'Untitled pipeline'}
        </span>
        {doc.version !== undefined && <span className="wb-doc-version">v{doc.version}</span>}
        {doc.dirty && (
          <span className="wb-doc-dirty" title="Changed since it was loaded or saved">
            ●
          </span>
        )}
        {doc.busy && <span className="wb-doc-busy">{doc.busy === 'loading' ? 'Opening…' : 'Saving…'}</span>}
        {!doc.busy && !doc.dirty && doc.savedAt && (
          <span className="wb-doc-saved" role="status">
            Saved
          </span>
        )}
      </div>
      <PipelineFormSwitch form={doc.form} text={doc.text} onSwitch={switchForm} />
      <div className="wb-toolbar-actions">
        {doc.key && (
          <button
            type="button"
            className="wb-button"
            onClick={() => void save()}
            disabled={!!doc.busy}
            title="Save (Ctrl+S)"
          >
            Save
          </button>
        )}
        {doc.key && onHistory && (
          <button type="button" className="wb-button" onClick={onHistory} disabled={!!doc.busy}>
            History
          </button>
        )}
        <button type="button" className="wb-button" onClick={() => setSavingAs(true)} disabled={!!doc.busy}>
          Save as…
        </button>
        <button
          type="button"
          className="wb-button wb-primary"
          onClick={onRun}
          disabled={running}
          title="Run (Ctrl+Enter)"
        >
          {running ? 'Running…' : '▶ Run'}
        </button>
      </div>
      {doc.problem && (
        <p className="wb-doc-problem" role="alert">
          {doc.problem}
        </p>
      )}
      {savingAs && (
        <SaveAsDialog
          initialKey={suggestedKey(doc.key)}
          onSave={storeAs}
          onClose={() => setSavingAs(false)}
        />
      )}
    </div>
  );
}
