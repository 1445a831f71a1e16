/** Says that the stored value changed since editing began, and lets the user choose: theirs or mine. */
import type { PropertyDraft } from './usePropertyDraft';
import styles from '../properties.module.css';

export function ConflictBanner({ draft, version }: { draft: PropertyDraft; version: number }) {
  if (draft.conflict) {
    return (
      <div role="alert" className={styles.conflict}>
        <strong>Conflict:</strong> someone else changed this property meanwhile (now version {version}). Your
        text was not saved and nothing was overwritten.
        <span className={styles.bannerActions}>
          <button type="button" className={styles.button} onClick={draft.reload}>
            Discard mine, load theirs
          </button>
          <button type="button" className={`${styles.button} ${styles.danger}`} onClick={draft.overwrite}>
            Save mine over theirs
          </button>
        </span>
      </div>
    );
  }
  if (draft.changedMeanwhile && draft.dirty) {
    return (
      <div role="status" className={styles.notice}>
        This property changed meanwhile (now version {version}); saving will show a conflict.
      </div>
    );
  }
  return null;
}
