import type { ApiResult } from '../api/client';

export function ResultView({ result }: { result: ApiResult }) {
  if (result.status === 204) return <p className="muted">No content (the body is null).</p>;
  const text = typeof result.data === 'string' ? result.data : JSON.stringify(result.data, null, 2);
  return (
    <pre className="result" data-testid="result">
      {text}
    </pre>
  );
}
