/** The document's toolbar: which pipeline this is, its form, save, run. */
import { useEffect } from 'react';
import { PipelineFormSwitch } from '../editor';
import type { PipelineDocument } from './useDocument';

export interface DocumentBarProps {
  document: PipelineDocument;
  onRun(): void;
  running: boolean;
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

export function DocumentBar({ document, onRun, running }: DocumentBarProps) {
  const { doc, switchForm, save } = document;
  useSaveShortcut(!!doc.key && !doc.busy && !doc.conflict, save);
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
    </div>
  );
}
