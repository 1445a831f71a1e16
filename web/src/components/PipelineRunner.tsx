import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, runPipelineText, type ApiResult } from '../api/client';
import type { Session } from '../api/session';
import { ResultView } from './ResultView';

const FIRST_PIPELINE = `pipeline:
  - log:
      message: "BODY: #{body.text}"
body:
  text: hello
`;

export function PipelineRunner({ session }: { session: Session }) {
  const [source, setSource] = useState(FIRST_PIPELINE);
  const [trace, setTrace] = useState(false);
  const run = useMutation<ApiResult, Error>({ mutationFn: () => runPipelineText(session, source, trace) });

  return (
    <main className="runner">
      <section className="editor-pane">
        <div className="toolbar">
          <button type="button" onClick={() => run.mutate()} disabled={run.isPending}>
            Run
          </button>
          <label>
            <input type="checkbox" checked={trace} onChange={(e) => setTrace(e.target.checked)} /> Trace
          </label>
        </div>
        <textarea
          aria-label="Pipeline"
          spellCheck={false}
          value={source}
          onChange={(e) => setSource(e.target.value)}
        />
      </section>
      <section className="result-pane" aria-label="Result">
        {run.isPending && <p>Running…</p>}
        {run.error && <ErrorView error={run.error} />}
        {run.data && <ResultView result={run.data} />}
      </section>
    </main>
  );
}

function ErrorView({ error }: { error: Error }) {
  if (!(error instanceof ApiError)) return <p className="error">{error.message}</p>;
  const { code, message, line, column } = error.value;
  return (
    <div className="error" role="alert">
      <strong>{code}</strong>
      {line !== undefined && (
        <span className="where">
          {' '}
          at line {line}, column {column}
        </span>
      )}
      <p>{message}</p>
    </div>
  );
}
