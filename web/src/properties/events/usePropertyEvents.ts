/**
 * Follows `/api/v3/events` while the tree is open: each property event refreshes the folders above its key
 * and the property itself (in batches, so a bulk publish costs a few refetches, not thousands). The server
 * sends only events about properties the signed-in user may read.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { endpointUrl, eventStream } from '../../../../shared/api';
import { useApi } from '../../api';
import { ancestorsOf } from '../api/property-paths';
import { childrenQueryKey, propertyQueryKey, searchQueryKey } from '../api/query-keys';
import { keysOfPropertyEvent, type PropertyEvent } from './property-event';
import { createSseParser } from './sse-parser';

export type LiveState = 'connecting' | 'live' | 'offline';

const EVENTS_URL = endpointUrl(eventStream, {}, { key: 'property.*' });
const BATCH_MS = 150;
const RETRY_MS = 3000;

export function usePropertyEvents(): LiveState {
  const api = useApi();
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveState>('connecting');

  useEffect(() => {
    const abort = new AbortController();
    const touched = new Set<string>();
    let timer: ReturnType<typeof setTimeout> | undefined;

    const flush = () => {
      timer = undefined;
      const keys = [...touched];
      touched.clear();
      const folders = new Set(keys.flatMap((key) => ancestorsOf(key).map((f) => f ?? '')));
      for (const folder of folders)
        void queryClient.invalidateQueries({ queryKey: childrenQueryKey(folder) });
      for (const key of keys) void queryClient.invalidateQueries({ queryKey: propertyQueryKey(key) });
      void queryClient.invalidateQueries({ queryKey: searchQueryKey() });
    };

    const onEvent = (data: string) => {
      for (const key of keysOfPropertyEvent(JSON.parse(data) as PropertyEvent)) touched.add(key);
      timer ??= setTimeout(flush, BATCH_MS);
    };

    const follow = async () => {
      while (!abort.signal.aborted) {
        try {
          const response = await api.fetch(EVENTS_URL, { signal: abort.signal });
          if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
          setState('live');
          // Whatever changed while not connected (another tab of the sidebar, a lost connection) is fetched again.
          void queryClient.invalidateQueries({ queryKey: childrenQueryKey('').slice(0, 1) });
          void queryClient.invalidateQueries({ queryKey: propertyQueryKey('').slice(0, 1) });
          const feed = createSseParser();
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            for (const message of feed(value))
              if (message.event.startsWith('property.')) onEvent(message.data);
          }
        } catch {
          // Offline, signed out or the server restarted: try again shortly.
        }
        if (abort.signal.aborted) return;
        setState('offline');
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    };
    void follow();
    return () => {
      abort.abort();
      if (timer) clearTimeout(timer);
    };
  }, [api, queryClient]);

  return state;
}
