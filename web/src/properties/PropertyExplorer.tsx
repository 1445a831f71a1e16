/**
 * The property explorer: a lazily loaded tree (or wildcard search results) on the left, the selected property
 * or folder on the right, kept up to date by the server's property events.
 */
import { useDeferredValue, useState } from 'react';
import { ExplorerDialogs } from './ExplorerDialogs';
import { usePropertyEvents } from './events/usePropertyEvents';
import { searchPattern } from './search/key-pattern';
import { SearchResults } from './search/SearchResults';
import { PropertyTree } from './tree/PropertyTree';
import { useExplorerState } from './useExplorerState';
import { FolderView } from './view/FolderView';
import { PropertyView } from './view/PropertyView';
import styles from './properties.module.css';

const LIVE_LABEL = { connecting: 'Connecting…', live: 'Live', offline: 'Offline, retrying' } as const;

export function PropertyExplorer() {
  const state = useExplorerState();
  const live = usePropertyEvents();
  const [search, setSearch] = useState('');
  const pattern = searchPattern(useDeferredValue(search));
  const { selected, setDialog } = state;
  const parentOfSelection = selected
    ? selected.folder
      ? selected.path
      : selected.path.replace(/\/[^/]*$/, '')
    : '';

  return (
    <div className={styles.wrapper}>
      <div className={`${styles.explorer} ${selected ? styles.hasDetail : ''}`}>
        <aside className={styles.side}>
          <div className={styles.toolbar}>
            <input
              type="search"
              aria-label="Search keys"
              placeholder="Search: global/app/*/pipeline/*"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              spellCheck={false}
            />
            <button
              type="button"
              className={`${styles.button} ${styles.primary}`}
              onClick={() => setDialog({ kind: 'create', folder: parentOfSelection })}
            >
              New
            </button>
          </div>
          <div className={styles.liveLine}>
            <span className={`${styles.liveDot} ${styles[live]}`} aria-hidden />
            <span data-testid="live-state">{LIVE_LABEL[live]}</span>
          </div>
          {pattern !== null ? (
            <SearchResults pattern={pattern} selectedKey={selected?.path ?? null} onSelect={state.reveal} />
          ) : (
            <PropertyTree
              expanded={state.expanded}
              selected={selected}
              onSelect={state.setSelected}
              onToggle={state.toggle}
            />
          )}
        </aside>
        {selected !== null && (
          <section className={styles.detail} aria-label="Selection">
            {selected.folder ? (
              <FolderView
                folder={selected.path}
                onCreate={(folder) => setDialog({ kind: 'create', folder })}
              />
            ) : (
              <PropertyView
                propertyKey={selected.path}
                onMove={(key) => setDialog({ kind: 'move', key })}
                onDelete={(key) => setDialog({ kind: 'delete', key })}
              />
            )}
          </section>
        )}
        <ExplorerDialogs
          dialog={state.dialog}
          onClose={() => setDialog(null)}
          onCreated={state.reveal}
          onDeleted={() => state.setSelected(null)}
        />
      </div>
    </div>
  );
}
