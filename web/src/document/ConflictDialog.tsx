/** A save that met a newer version: theirs next to mine (differing lines marked), and the user decides. */
import type { PipelineDocument } from './useDocument';

/** The text with the lines the other side lacks marked. */
function Side({ text, other, testId }: { text: string; other: string; testId: string }) {
  const otherLines = new Set(other.split('\n'));
  return (
    <pre data-testid={testId}>
      {text.split('\n').map((line, i) => (
        <span key={i} className={otherLines.has(line) ? undefined : 'wb-diff-changed'}>
          {line}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

export function ConflictDialog({ document }: { document: PipelineDocument }) {
  const { doc, reload, overwrite, closeConflict } = document;
  const conflict = doc.conflict;
  if (!conflict) return null;
  return (
    <div className="wb-modal-backdrop">
      <div className="wb-modal wb-conflict" role="dialog" aria-modal="true" aria-labelledby="conflict-title">
        <h2 id="conflict-title">Changed meanwhile</h2>
        <p>
          <strong>{doc.key}</strong> was changed by someone else since you opened it (you had version{' '}
          {doc.version}, it is now version {conflict.theirVersion}). Nothing was overwritten: choose which
          text to keep.
        </p>
        <div className="wb-conflict-sides">
          <section aria-label="Theirs">
            <h3>Theirs · version {conflict.theirVersion}</h3>
            <Side text={conflict.theirs} other={conflict.mine} testId="conflict-theirs" />
          </section>
          <section aria-label="Mine">
            <h3>Mine · not saved</h3>
            <Side text={conflict.mine} other={conflict.theirs} testId="conflict-mine" />
          </section>
        </div>
        <div className="wb-modal-actions">
          <button type="button" className="wb-button" onClick={closeConflict}>
            Keep editing
          </button>
          <button type="button" className="wb-button" onClick={() => void reload()}>
            Reload theirs
          </button>
          <button type="button" className="wb-button wb-danger" onClick={() => void overwrite()}>
            Overwrite with mine
          </button>
        </div>
      </div>
    </div>
  );
}
