/**
 * Loads the top level and every expanded folder, one level per request and page by page
 * (`property.keys.children.page`): a folder shows its first entries at once, whatever its size.
 */
import { keepPreviousData, useQueries, type UseQueryResult } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useApi, type ApiClient } from '../../api';
import { folderPage } from '../api/property-api';
import { toEntries } from '../api/property-paths';
import { childrenQueryKey } from '../api/query-keys';
import type { ChildrenLookup, FolderListing } from './tree-rows';

export const PAGE_SIZE = 500;

/** The first `want` entries of a folder (at least), following the pages' cursors. */
async function loadFolder(
  api: ApiClient,
  folder: string,
  want: number,
  signal: AbortSignal,
): Promise<FolderListing> {
  const children: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await folderPage(api, folder === '' ? null : folder, after, PAGE_SIZE, signal);
    children.push(...page.children);
    if (page.next === null) return { entries: toEntries(children), more: false };
    if (children.length >= want) return { entries: toEntries(children), more: true };
    after = page.next;
  }
}

export function useTreeChildren(expanded: ReadonlySet<string>) {
  const api = useApi();
  const [wanted, setWanted] = useState<Readonly<Record<string, number>>>({});
  const folders = useMemo(() => ['', ...expanded], [expanded]);
  // Stable while the folders and their results are: an inline combine would run (and make a new lookup, hence
  // a new row list) on every render, every scroll event included.
  const combine = useCallback(
    (results: UseQueryResult<FolderListing>[]) => {
      const loaded = new Map<string, FolderListing>();
      const errors: Error[] = [];
      results.forEach((r, i) => {
        if (r.data) loaded.set(folders[i]!, r.data);
        else if (r.error) {
          loaded.set(folders[i]!, { entries: [], more: false });
          errors.push(r.error);
        }
      });
      const error = errors[0] ?? null;
      return { loaded, error };
    },
    [folders],
  );
  const result = useQueries({
    queries: folders.map((folder) => {
      const want = wanted[folder] ?? PAGE_SIZE;
      return {
        queryKey: [...childrenQueryKey(folder), want],
        queryFn: ({ signal }: { signal: AbortSignal }) => loadFolder(api, folder, want, signal),
        placeholderData: keepPreviousData,
        staleTime: 30_000,
      };
    }),
    combine,
  });
  const lookup: ChildrenLookup = useCallback((folder) => result.loaded.get(folder), [result.loaded]);
  const showMore = useCallback((folder: string, shown: number) => {
    setWanted((current) => ({ ...current, [folder]: shown + PAGE_SIZE }));
  }, []);
  return { lookup, error: result.error, showMore };
}
