/**
 * The SQL-independent rules of a tree level (`PropertyStore.children`), shared by the SQLite and PostgreSQL
 * skip scans: which child a key shows as, where the scan resumes after it, and what a reader sees above
 * their own folders (only the paths down to them, and only when something live is inside).
 */
import { isPropertyRoot, normalizePropertyKey } from '../../shared/property';

/** The folder of a tree level as stored: null (the top level), a root folder, or a normalised key. */
export function levelBase(parent: string | null): string | null {
  return parent === null || isPropertyRoot(parent) ? parent : normalizePropertyKey(parent);
}

/** The child of the level with key prefix `prefix` that `key` lies in: the key itself, or its sub-folder with `/`. */
export function childAt(key: string, prefix: string): string {
  const slash = key.indexOf('/', prefix.length);
  return slash < 0 ? key : `${key.slice(0, slash)}/`;
}

/** Where the scan resumes after a listed entry: past a sub-folder's whole content, or just past a key. */
export function resumeAfter(entry: string): string {
  // Key characters are all below 0x7f.
  return entry.endsWith('/') ? `${entry}\x7f` : entry;
}

/** True when the level below `base` (null: the top level) lies inside one of the reader's folders. */
export function seesWholeLevel(base: string | null, folders: readonly string[]): boolean {
  return base !== null && folders.some((f) => base === f || base.startsWith(`${f}/`));
}

/** Whether the reader's folder holds a live property itself and live properties inside. */
export interface FolderProbe {
  folder: string;
  hasExact: boolean;
  hasInside: boolean;
}

/** The reader's folders below `base` that decide what shows when the level is not wholly visible. */
export function foldersBelow(base: string | null, scope: readonly string[]): string[] {
  const prefix = base === null ? '' : `${base}/`;
  return scope.filter((folder) => folder.startsWith(prefix) && folder !== prefix);
}

/** The children shown above the reader's folders, sorted, from the probes of `foldersBelow`. */
export function childrenFromProbes(base: string | null, probes: readonly FolderProbe[]): string[] {
  const prefix = base === null ? '' : `${base}/`;
  const found = new Set<string>();
  for (const { folder, hasExact, hasInside } of probes) {
    const rest = folder.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash < 0) {
      if (hasExact) found.add(folder);
      if (hasInside) found.add(`${folder}/`);
    } else if (hasExact || hasInside) {
      found.add(`${prefix}${rest.slice(0, slash)}/`);
    }
  }
  return [...found].sort();
}
