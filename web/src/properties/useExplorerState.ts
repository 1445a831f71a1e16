/** What the explorer shows: the expanded folders, the selection, and the open dialog. */
import { useCallback, useEffect, useState } from 'react';
import { ancestorsOf } from './api/property-paths';
import type { TreeEntry } from './api/property-types';

export type ExplorerDialog =
  { kind: 'create'; folder: string } | { kind: 'move'; key: string } | { kind: 'delete'; key: string } | null;

/** Kept while the explorer is hidden (the sidebar shows one tab at a time), so it comes back as it was left. */
const remembered: { expanded: ReadonlySet<string>; selected: TreeEntry | null } = {
  expanded: new Set(),
  selected: null,
};

export function useExplorerState() {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(remembered.expanded);
  const [selected, setSelected] = useState<TreeEntry | null>(remembered.selected);
  const [dialog, setDialog] = useState<ExplorerDialog>(null);
  useEffect(() => {
    remembered.expanded = expanded;
    remembered.selected = selected;
  }, [expanded, selected]);

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
