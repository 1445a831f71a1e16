/**
 * The history of the open pipeline (docs/history.md): its kept versions, the chosen one against the text as
 * it is now in Monaco's diff editor, and a restore, which stores that version again as a new version.
 */
import { Suspense, useCallback, useEffect, useState } from 'react';
import { errorText, useApi } from '../api';
import { DiffEditor } from '../editor';

interface VersionSummary {
  id: number;
  kind: string;
  version: number | null;
  actor: string | null;
  actorName?: string | null;
  at: number;
  otherKey: string | null;
}

interface Version extends VersionSummary {
  value: string | null;
}

export interface HistoryDialogProps {
  propertyKey: string;
  /** The text now (the editor's, saved or not): the right side of the diff. */
  current: string;
  language: string;
  onClose(): void;
  /** After a restore: the document reloads the property. */
  onRestored(): void;
}

const when = (ms: number) => new Date(ms).toLocaleString();

export function HistoryDialog({ propertyKey, current, language, onClose, onRestored }: HistoryDialogProps) {
  const api = useApi();
  const [versions, setVersions] = useState<VersionSummary[] | null>(null);
  const [chosen, setChosen] = useState<Version | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [wide, setWide] = useState(() => window.innerWidth >= 900);

  useEffect(() => {
    const onResize = () => setWide(window.innerWidth >= 900);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  useEffect(() => {
    api
      .command<VersionSummary[]>('property.history.list', { key: propertyKey, limit: 100 })
      .then(setVersions)
      .catch((error: unknown) => setProblem(errorText(error)));
  }, [api, propertyKey]);

  const choose = useCallback(
    (id: number) => {
      setProblem(null);
      api
        .command<Version>('property.history.get', { key: propertyKey, version: id })
        .then(setChosen)
        .catch((error: unknown) => setProblem(errorText(error)));
    },
    [api, propertyKey],
  );

  const restore = async () => {
    if (!chosen) return;
    setBusy(true);
    try {
      await api.command(
        'property.history.restore',
        { key: propertyKey, version: chosen.id },
        { method: 'POST' },
      );
      onRestored();
    } catch (error) {
      setProblem(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  const restorable = chosen && chosen.kind !== 'deleted' && chosen.kind !== 'moved-out';
  return (
    <div className="wb-modal-backdrop">
      <div className="wb-modal wb-history" role="dialog" aria-modal="true" aria-labelledby="history-title">
        <h2 id="history-title">History of {propertyKey}</h2>
        <div className="wb-history-body">
          <ol className="wb-history-list" aria-label="Versions">
            {versions === null && !problem && <li>Loading…</li>}
            {versions?.length === 0 && <li>No kept versions.</li>}
            {versions?.map((v) => (
              <li key={v.id}>
                <button
                  type="button"
                  className={`wb-history-version${chosen?.id === v.id ? ' wb-selected' : ''}`}
                  aria-pressed={chosen?.id === v.id}
                  onClick={() => choose(v.id)}
                >
                  <strong>{v.version === null ? v.kind : `v${v.version}`}</strong> {v.kind}
                  <br />
                  <small>
                    {when(v.at)}
                    {v.actorName ? ` · ${v.actorName}` : ''}
                  </small>
                </button>
              </li>
            ))}
          </ol>
          <section className="wb-history-diff" aria-label="Differences">
            {chosen ? (
              <>
                <p className="wb-history-caption">
                  Version {chosen.version ?? chosen.kind} (its lines in red) against the text now (in green)
                </p>
                <Suspense fallback={<p>Loading the diff…</p>}>
                  <DiffEditor
                    original={chosen.value ?? ''}
                    modified={current}
                    language={language}
                    sideBySide={wide}
                  />
                </Suspense>
              </>
            ) : (
              <p>Choose a version to compare it with the text now.</p>
            )}
          </section>
        </div>
        {problem && (
          <p className="wb-doc-problem" role="alert">
            {problem}
          </p>
        )}
        <div className="wb-modal-actions">
          <button type="button" className="wb-button" onClick={onClose}>
            Close
          </button>
          <button
            type="button"
            className="wb-button wb-primary"
            disabled={!restorable || busy}
            onClick={() => void restore()}
          >
            {busy ? 'Restoring…' : 'Restore this version'}
          </button>
        </div>
      </div>
    </div>
  );
}
