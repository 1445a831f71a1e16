/** The Secrets tab: the secrets you may use (names and formats only), add, replace and delete. */
import { useCallback, useEffect, useState } from 'react';
import { useApi } from '../api';
import { SecretForm } from './SecretForm';
import { deleteSecret, listSecrets, type SecretInfo } from './secret-api';
import styles from './secrets.module.css';

type Editing = { kind: 'add' } | { kind: 'replace'; secret: SecretInfo } | null;

const scopeText = (s: SecretInfo) => (s.scopeName ? `${s.scope}: ${s.scopeName}` : s.scope);

export function SecretsView() {
  const api = useApi();
  const [secrets, setSecrets] = useState<SecretInfo[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const [confirming, setConfirming] = useState<string | null>(null);

  const reload = useCallback(() => {
    listSecrets(api)
      .then((list) => {
        setSecrets(list);
        setProblem(null);
      })
      .catch((error: unknown) => setProblem(error instanceof Error ? error.message : String(error)));
  }, [api]);
  useEffect(reload, [reload]);

  async function remove(secret: SecretInfo) {
    try {
      await deleteSecret(api, secret);
      setConfirming(null);
      reload();
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  }

  return (
    <section className={styles.view} aria-label="Secrets">
      <div className={styles.bar}>
        <button type="button" className="wb-button" onClick={() => setEditing({ kind: 'add' })}>
          Add secret
        </button>
      </div>
      {editing && (
        <SecretForm
          key={editing.kind === 'add' ? 'add' : editing.secret.name}
          replacing={editing.kind === 'replace' ? editing.secret : undefined}
          onCancel={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            reload();
          }}
        />
      )}
      {problem && (
        <p className="wb-doc-problem" role="alert">
          {problem}
        </p>
      )}
      {secrets?.length === 0 && <p className="wb-hint">No secrets yet.</p>}
      <ul className={styles.list}>
        {secrets?.map((s) => (
          <li key={`${s.scope}/${s.scopeName ?? ''}/${s.name}`} className={styles.item}>
            <div className={styles.meta}>
              <span className={styles.name}>{s.name}</span>
              <span className={styles.details}>
                {s.format} · {scopeText(s)} · by {s.createdBy} · {new Date(s.updated).toLocaleString()}
              </span>
              <span className={styles.masked} aria-label="value hidden">
                ••••••••
              </span>
            </div>
            <div className="wb-toolbar-actions">
              <button
                type="button"
                className="wb-button"
                aria-label={`Replace ${s.name}`}
                onClick={() => setEditing({ kind: 'replace', secret: s })}
              >
                Replace
              </button>
              {confirming === s.name ? (
                <button
                  type="button"
                  className="wb-button"
                  aria-label={`Confirm delete ${s.name}`}
                  onClick={() => void remove(s)}
                >
                  Really delete
                </button>
              ) : (
                <button
                  type="button"
                  className="wb-button"
                  aria-label={`Delete ${s.name}`}
                  onClick={() => setConfirming(s.name)}
                >
                  Delete
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
