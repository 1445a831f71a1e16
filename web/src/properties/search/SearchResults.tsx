/** Keys found by a wildcard search, windowed so that a `**` over a large store stays smooth. */
import { errorText } from '../api/error-text';
import { useVirtualWindow } from '../tree/useVirtualWindow';
import { useKeySearch } from './useKeySearch';
import styles from '../properties.module.css';

const ROW_HEIGHT = 26;

interface SearchResultsProps {
  pattern: string;
  selectedKey: string | null;
  onSelect(key: string): void;
}

export function SearchResults({ pattern, selectedKey, onSelect }: SearchResultsProps) {
  const search = useKeySearch(pattern);
  const keys = search.data ?? [];
  const { attach, onScroll, start, end, totalHeight } = useVirtualWindow(keys.length, ROW_HEIGHT);
  const problem = search.error ? errorText(search.error) : null;

  return (
    <div className={styles.searchPane}>
      <p className={styles.searchInfo} aria-live="polite">
        {problem ? (
          <span role="alert" className={styles.error}>
            {problem}
          </span>
        ) : search.isPending ? (
          'Searching…'
        ) : (
          `${keys.length} ${keys.length === 1 ? 'key matches' : 'keys match'} ${pattern}`
        )}
      </p>
      <div ref={attach} className={styles.scroller} onScroll={onScroll}>
        <ul aria-label="Search results" className={styles.canvas} style={{ height: totalHeight }}>
          {keys.slice(start, end).map((key, i) => (
            <li
              key={key}
              className={`${styles.row} ${key === selectedKey ? styles.selected : ''}`}
              style={{ top: (start + i) * ROW_HEIGHT, height: ROW_HEIGHT, paddingLeft: 8 }}
              title={key}
              onClick={() => onSelect(key)}
            >
              <span className={styles.fileIcon} aria-hidden />
              <span className={styles.rowName}>{key}</span>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
