/** A selected folder: its path, creating a property inside it, and for an app's test folder its tests. */
import { isTestFolder } from '../api/property-paths';
import { TestRunPanel } from '../tests/TestRunPanel';
import styles from '../properties.module.css';

interface FolderViewProps {
  folder: string;
  onCreate(folder: string): void;
}

export function FolderView({ folder, onCreate }: FolderViewProps) {
  return (
    <article className={styles.propertyView} aria-label={`Folder ${folder}`}>
      <header className={styles.viewHeader}>
        <h2 title={folder}>{folder}/</h2>
        <div className={styles.viewActions}>
          <button type="button" className={styles.button} onClick={() => onCreate(folder)}>
            New property here
          </button>
        </div>
      </header>
      {isTestFolder(folder) ? (
        <TestRunPanel folder={folder} />
      ) : (
        <p className={styles.muted}>A folder. Its contents load when it opens in the tree.</p>
      )}
    </article>
  );
}
