/** The property's metadata: uuid, key, type, created, updated, time to live, version. */
import type { Property } from '../api/property-types';
import styles from '../properties.module.css';

function when(ms: number | null): string {
  return ms === null ? '—' : new Date(ms).toLocaleString();
}

function timeToLive(property: Property): string {
  if (!property.timeToLive) return 'never expires';
  const expires = property.created + property.timeToLive * 60_000;
  return `${property.timeToLive} min (expires ${new Date(expires).toLocaleString()})`;
}

export function PropertyMeta({ property }: { property: Property }) {
  const rows: [string, string][] = [
    ['uuid', property.uuid],
    ['key', property.key],
    ['type', property.type],
    ['created', when(property.created)],
    ['updated', when(property.updated)],
    ['time to live', timeToLive(property)],
    ['version', String(property.version)],
  ];
  return (
    <dl className={styles.meta} aria-label="Metadata">
      {rows.map(([label, value]) => (
        <div key={label} className={label === 'uuid' || label === 'key' ? styles.wide : undefined}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
