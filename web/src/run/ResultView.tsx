/** The final body by kind: JSON as a tree, text, images and PDFs previewed, any bytes downloadable. */
import { useEffect, useMemo } from 'react';
import { JsonTree } from './JsonTree';
import type { RunBody } from './run-types';
import styles from './run.module.css';

function sizeText(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}

function extensionOf(mimeType: string): string {
  const known: Record<string, string> = { 'application/pdf': 'pdf', 'image/png': 'png', 'image/jpeg': 'jpg' };
  return known[mimeType] ?? mimeType.split('/')[1]?.replace(/[^a-z0-9]/gi, '') ?? 'bin';
}

function BytesView({ body }: { body: Extract<RunBody, { kind: 'bytes' }> }) {
  const url = useMemo(() => (body.blob ? URL.createObjectURL(body.blob) : undefined), [body.blob]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  const fileName = body.name ?? `result.${extensionOf(body.mimeType)}`;
  return (
    <div className={styles.bytes}>
      <div className={styles.bytesBar}>
        <span>
          {body.mimeType} · {sizeText(body.size)}
        </span>
        {url ? (
          <a className={styles.download} href={url} download={fileName}>
            Download {fileName}
          </a>
        ) : (
          <span className={styles.muted}>Too large to show here; run it through the API to download it.</span>
        )}
      </div>
      {url && body.mimeType.startsWith('image/') && (
        <img className={styles.preview} src={url} alt={`Result: ${fileName}`} />
      )}
      {url && body.mimeType === 'application/pdf' && (
        <iframe className={styles.pdf} src={url} title={`Result: ${fileName}`} />
      )}
    </div>
  );
}

export function ResultView({ body }: { body: RunBody }) {
  if (body.kind === 'bytes') return <BytesView body={body} />;
  const { value } = body;
  if (value === null || value === undefined) {
    return <p className={styles.muted}>The pipeline ended with no body (null).</p>;
  }
  if (typeof value === 'string') {
    return (
      <pre className={styles.text} data-testid="result-text">
        {value}
      </pre>
    );
  }
  return (
    <div data-testid="result-json">
      <JsonTree value={value} openDepth={3} label="Result" />
    </div>
  );
}
