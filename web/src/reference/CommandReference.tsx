/** The command reference, generated from the pipeline schema: search, then unfold a command to read and insert it. */
import { useDeferredValue, useMemo, useState } from 'react';
import { searchCommands } from '../../../shared/commands/schema-catalog';
import { CommandEntry } from './CommandEntry';
import { useCommandCatalog } from './useCommandCatalog';
import styles from './reference.module.css';

/** Results unfold by themselves when a search leaves this few. */
const AUTO_OPEN = 3;

export function CommandReference() {
  const { commands, error, loading } = useCommandCatalog();
  const [query, setQuery] = useState('');
  // Names whose state differs from the default (closed; open when a search leaves few results).
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set());
  const deferred = useDeferredValue(query);
  const found = useMemo(() => searchCommands(commands, deferred), [commands, deferred]);
  const autoOpen = deferred.trim() !== '' && found.length <= AUTO_OPEN;

  const toggle = (name: string) =>
    setOpened((current) => {
      const next = new Set(current);
      if (next.has(name)) next.delete(name);
      else next.add(name);
      return next;
    });

  return (
    <section className={styles.reference} aria-label="Command reference">
      <div className={styles.searchBar}>
        <input
          type="search"
          aria-label="Search commands"
          placeholder="Search commands, e.g. property list"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <span className={styles.muted}>
          {loading ? 'Loading…' : `${found.length} of ${commands.length} commands`}
        </span>
      </div>
      {error && (
        <p role="alert" className={styles.error}>
          {error.message}
        </p>
      )}
      <ul className={styles.list}>
        {found.map((command) => (
          <CommandEntry
            key={command.name}
            command={command}
            open={autoOpen !== opened.has(command.name)}
            onToggle={() => toggle(command.name)}
          />
        ))}
      </ul>
    </section>
  );
}
