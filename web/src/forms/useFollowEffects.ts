/**
 * After a submission, follows what it caused through the event stream: the properties the app's listener
 * wrote (its effect), for a while. Run records will give the listener's run itself once they exist; until
 * then the effect is what can be shown. The server sends only events of properties the user may read.
 */
import { useEffect, useState } from 'react';
import { endpointUrl, eventStream } from '../../../shared/api';
import { useApi } from '../api';
import { createSseParser } from '../properties/events/sse-parser';

export interface SeenEffect {
  event: string;
  key: string;
  at: number;
}

const FOLLOW_MS = 60_000;

/** Events after `since` (null: not following) other than the submitted instance's own creation. */
export function useFollowEffects(submitted: { key: string; at: number } | null): SeenEffect[] {
  const api = useApi();
  // Kept with the submission they follow: a new submission starts with an empty list.
  const [seen, setSeen] = useState<{ of: unknown; list: SeenEffect[] }>({ of: null, list: [] });
  useEffect(() => {
    if (!submitted) return;
    const abort = new AbortController();
    const stop = setTimeout(() => abort.abort(), FOLLOW_MS);
    void (async () => {
      try {
        const response = await api.fetch(endpointUrl(eventStream, {}, { key: '*' }), {
          signal: abort.signal,
        });
        if (!response.ok || !response.body) return;
        const feed = createSseParser();
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          for (const message of feed(value)) {
            let key = '';
            try {
              const data = JSON.parse(message.data) as { payload?: { target?: { key?: string } } };
              key = data.payload?.target?.key ?? '';
            } catch {
              continue;
            }
            if (message.event === 'property.created' && key === submitted.key) continue;
            const effect = { event: message.event, key, at: Date.now() };
            setSeen((s) => ({
              of: submitted,
              list: [...(s.of === submitted ? s.list : []).slice(-49), effect],
            }));
          }
        }
      } catch {
        // Aborted or offline: following is best effort.
      }
    })();
    return () => {
      clearTimeout(stop);
      abort.abort();
    };
  }, [api, submitted]);
  return seen.of === submitted ? seen.list : [];
}
