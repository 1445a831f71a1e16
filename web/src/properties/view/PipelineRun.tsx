/** Runs a stored pipeline's current text and shows its result or its error (code, message, line and column). */
import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../api';
import styles from '../properties.module.css';

interface RunOutcome {
  ok: boolean;
  text: string;
}

async function runPipeline(api: ReturnType<typeof useApi>, source: string): Promise<RunOutcome> {
  const response = await api.fetch('/api/v3/pipeline', {
    method: 'POST',
    headers: { 'content-type': 'application/yaml' },
    body: source,
  });
  const type = response.headers.get('content-type') ?? '';
  if (response.status === 204 || (type === '' && response.headers.get('content-length') === '0')) {
    return { ok: true, text: '(no body)' };
  }
  if (type.includes('json')) {
    const data = (await response.json()) as {
      value?: { code: string; message: string; line?: number; column?: number };
    };
    if (!response.ok && data.value) {
      const at = data.value.line ? ` at line ${data.value.line}, column ${data.value.column ?? 1}` : '';
      return { ok: false, text: `${data.value.code}${at}: ${data.value.message}` };
    }
    return { ok: response.ok, text: JSON.stringify(data, null, 2) };
  }
  if (type.startsWith('text/')) return { ok: response.ok, text: await response.text() };
  return { ok: response.ok, text: `${type} (${(await response.blob()).size} bytes)` };
}

export function usePipelineRun() {
  const api = useApi();
  return useMutation({ mutationFn: (source: string) => runPipeline(api, source) });
}

export function PipelineRunResult({ run }: { run: ReturnType<typeof usePipelineRun> }) {
  if (run.isIdle) return null;
  const outcome = run.data;
  return (
    <section aria-label="Run result" className={styles.section}>
      <h3>Run result</h3>
      {run.isPending && <p className={styles.muted}>Running…</p>}
      {run.error && <p className={styles.error}>{run.error.message}</p>}
      {outcome && (
        <pre
          role={outcome.ok ? undefined : 'alert'}
          className={outcome.ok ? styles.output : styles.outputError}
        >
          {outcome.text}
        </pre>
      )}
    </section>
  );
}
