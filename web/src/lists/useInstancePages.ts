/**
 * The rows of a list, page by page from `property.object.instances` as they scroll into view (sorting,
 * filtering and counting happen on the server), refreshed when an instance of the object changes.
 */
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { endpointUrl, eventStream } from '../../../shared/api';
import { useApi } from '../api';
import { createSseParser } from '../properties/events/sse-parser';

export const PAGE_SIZE = 200;

export interface ListQuery {
  object: string;
  sort?: string;
  descending?: boolean;
  filters: { field: string; op: 'contains' | 'equals'; value: string }[];
  search?: string;
}

export interface InstanceRow {
  key: string;
  uuid: string;
  version: number;
  created: number;
  updated: number | null;
  value: unknown;
}

export interface InstancesPage {
  total: number;
  instances: InstanceRow[];
}

export function listQueryKey(object: string): unknown[] {
  return ['instances', object];
}

export function pageParams(query: ListQuery, page: number, limit = PAGE_SIZE): Record<string, unknown> {
  return {
    object: query.object,
    sort: query.sort,
    descending: query.descending || undefined,
    filter: query.filters.length ? query.filters : undefined,
    search: query.search || undefined,
    offset: page * limit,
    limit,
  };
}

/** The pages holding rows `first..last` (and the first page, for the total). */
export function useInstancePages(query: ListQuery, first: number, last: number) {
  const api = useApi();
  const pages = new Set([0]);
  for (let p = Math.floor(first / PAGE_SIZE); p <= Math.floor(last / PAGE_SIZE); p++) pages.add(p);
  const results = useQueries({
    queries: [...pages].map((page) => ({
      queryKey: [...listQueryKey(query.object), query, page],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        api.command<InstancesPage>('property.object.instances', pageParams(query, page), { signal }),
      staleTime: 30_000,
      placeholderData: (previous: InstancesPage | undefined) => previous,
    })),
  });
  const byPage = new Map<number, InstancesPage>();
  [...pages].forEach((page, i) => {
    const data = results[i]?.data;
    if (data && !results[i]?.isPlaceholderData) byPage.set(page, data);
  });
  const firstResult = results[0];
  return {
    total: firstResult?.data?.total ?? 0,
    loading: firstResult?.isPending ?? true,
    error: (firstResult?.error as Error | null) ?? null,
    rowAt: (index: number): InstanceRow | undefined =>
      byPage.get(Math.floor(index / PAGE_SIZE))?.instances[index % PAGE_SIZE],
  };
}

/** Refetches the object's pages when one of its instances is created, changed or deleted. */
export function useLiveInstances(object: string): void {
  const api = useApi();
  const queryClient = useQueryClient();
  useEffect(() => {
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    void (async () => {
      try {
        const url = endpointUrl(eventStream, {}, { key: 'property.*', filter: `${object}/instance/*` });
        const response = await api.fetch(url, { signal: abort.signal });
        if (!response.ok || !response.body) return;
        const feed = createSseParser();
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          if (feed(value).some((m) => m.event.startsWith('property.')))
            timer ??= setTimeout(() => {
              timer = undefined;
              void queryClient.invalidateQueries({ queryKey: listQueryKey(object) });
            }, 200);
        }
      } catch {
        // Aborted or offline: the list still works, without live updates.
      }
    })();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [api, object, queryClient]);
}
