/**
 * After a submission, the runs it caused: the app's `event.listen` pipelines that ran since, read from the run
 * history (`GET /api/v3/runs?trigger=event&from=...`), polled until each has finished or a minute has passed.
 * The history shows a user their own runs (an admin every run): a listener runs as its author, so a user
 * who is not its author sees what it wrote (useFollowEffects) but not the run itself.
 */
import { useQuery } from '@tanstack/react-query';
import { endpointUrl, listRuns } from '../../../shared/api';
import { useApi } from '../api';

export interface CausedRun {
  id: string;
  pipelineKey: string | null;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  created: number;
  durationMs?: number | null;
  error?: { code?: string; message?: string } | null;
}

const FOLLOW_MS = 60_000;
/** Runs of the app's listeners that started this long before the submission was acknowledged still count. */
const EARLIER_MS = 2_000;

/** Whether a run is one of the app's listener runs (its pipeline lies in the app folder). */
export function isAppListenerRun(run: CausedRun, app: string): boolean {
  return typeof run.pipelineKey === 'string' && run.pipelineKey.startsWith(`${app}/`);
}

export function useFollowRuns(submitted: { key: string; at: number } | null, app: string): CausedRun[] {
  const api = useApi();
  const query = useQuery({
    queryKey: ['caused-runs', app, submitted?.key, submitted?.at],
    enabled: !!submitted,
    queryFn: async ({ signal }) => {
      const from = (submitted?.at ?? 0) - EARLIER_MS;
      const response = await api.fetch(
        endpointUrl(listRuns, {}, { trigger: 'event', from: String(from), limit: 50 }),
        { signal },
      );
      if (!response.ok) return [];
      const body = (await response.json()) as { runs?: CausedRun[] };
      return (body.runs ?? []).filter((run) => isAppListenerRun(run, app)).reverse();
    },
    refetchInterval: (q) => {
      if (!submitted || Date.now() - submitted.at > FOLLOW_MS) return false;
      const runs = q.state.data ?? [];
      const settled = runs.length > 0 && runs.every((r) => r.status !== 'queued' && r.status !== 'running');
      // The history is written in batches: keep looking a while after the first finished run.
      return settled && Date.now() - submitted.at > 10_000 ? false : 1_500;
    },
  });
  return submitted ? (query.data ?? []) : [];
}
