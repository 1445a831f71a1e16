/** What the explorer shows: the expanded folders, the selection, and the open dialog. */
import { useCallback, useState } from 'react';
import { ancestorsOf } from './api/property-paths';
import type { TreeEntry } from './api/property-types';

export type ExplorerDialog =
  { kind: 'create'; folder: string } | { kind: 'move'; key: string } | { kind: 'delete'; key: string } | null;

export function useExplorerState() {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [selected, setSelected] = useState<TreeEntry | null>(null);
  const [dialog, setDialog] = useState<ExplorerDialog>(null);

  const toggle = useCallback((path: string) => {
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(path)) next.delete(path);
      else next.add(path);
      return next;
    });
  }, []);

  /** Selects a property and opens every folder above it. */
  const reveal = useCallback((key: string) => {
    setExpanded((current) => {
      const next = new Set(current);
      for (const folder of ancestorsOf(key)) if (folder !== null) next.add(folder);
      return next;
    });
    setSelected({ path: key, name: key.slice(key.lastIndexOf('/') + 1), folder: false });
  }, []);

  return { expanded, toggle, selected, setSelected, reveal, dialog, setDialog };
}
