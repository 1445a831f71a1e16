/** A JSON value as a collapsible tree: objects and lists open to a depth, long lists a page at a time. */
import { useState } from 'react';
import { isContentObjectJson } from '../../../shared/values';
import styles from './run.module.css';

const PAGE = 100;

function Scalar({ value }: { value: unknown }) {
  if (value === null) return <span className={styles.jNull}>null</span>;
  if (typeof value === 'string') return <span className={styles.jString}>{JSON.stringify(value)}</span>;
  if (typeof value === 'number') return <span className={styles.jNumber}>{String(value)}</span>;
  if (typeof value === 'boolean') return <span className={styles.jBoolean}>{String(value)}</span>;
  return <span className={styles.jNull}>{String(value)}</span>;
}

function summary(value: object): string {
  if (Array.isArray(value)) return `[${value.length}]`;
  if (isContentObjectJson(value)) {
    return `bytes · ${value.mimeType ?? ''} · ${value.size ?? '?'} B`;
  }
  const keys = Object.keys(value);
  return `{${keys.length}}`;
}

interface NodeProps {
  name?: string;
  value: unknown;
  depth: number;
  openDepth: number;
}

function JsonNode({ name, value, depth, openDepth }: NodeProps) {
  const composite = value !== null && typeof value === 'object';
  const [open, setOpen] = useState(depth < openDepth);
  const [shown, setShown] = useState(PAGE);
  const label = name !== undefined && <span className={styles.jKey}>{name}: </span>;
  if (!composite) {
    return (
      <div className={styles.jRow}>
        <span className={styles.jToggleSpace} />
        {label}
        <Scalar value={value} />
      </div>
    );
  }
  const entries = Array.isArray(value)
    ? value.map((item, i) => [String(i), item] as const)
    : Object.entries(value as Record<string, unknown>);
  return (
    <div>
      <div className={styles.jRow}>
        <button
          type="button"
          className={styles.jToggle}
          aria-expanded={open}
          aria-label={open ? 'Collapse' : 'Expand'}
          onClick={() => setOpen(!open)}
        >
          {open ? '▾' : '▸'}
        </button>
        {label}
        <span className={styles.jSummary}>{summary(value as object)}</span>
      </div>
      {open && (
        <div className={styles.jChildren}>
          {entries.slice(0, shown).map(([key, item]) => (
            <JsonNode key={key} name={key} value={item} depth={depth + 1} openDepth={openDepth} />
          ))}
          {entries.length > shown && (
            <button type="button" className={styles.linkButton} onClick={() => setShown(shown + PAGE)}>
              Show {Math.min(PAGE, entries.length - shown)} more of {entries.length - shown}
            </button>
          )}
        </div>
      )}
    </div>
  );
}

export function JsonTree({
  value,
  openDepth = 2,
  label,
}: {
  value: unknown;
  openDepth?: number;
  label?: string;
}) {
  return (
    // A group of disclosure buttons (not role=tree: its items would have to be the focusable elements).
    <div className={styles.jsonTree} role="group" aria-label={label ?? 'JSON value'}>
      <JsonNode value={value} depth={0} openDepth={openDepth} />
    </div>
  );
}
