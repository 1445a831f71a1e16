/** The Runs view's filters: pipeline, status, trigger and text in the runs' inputs or errors. */
import { useId, type ReactNode } from 'react';
import { RUN_STATUSES, RUN_TRIGGERS, type RunFilter } from './runs-api';
import styles from './runs.module.css';

/** A label tied to its control by id (a label around a select would name it with all its options). */
function Field({
  label,
  grow,
  children,
}: {
  label: string;
  grow?: boolean;
  children(id: string): ReactNode;
}) {
  const id = useId();
  return (
    <div className={grow ? `${styles.field} ${styles.grow}` : styles.field}>
      <label htmlFor={id}>{label}</label>
      {children(id)}
    </div>
  );
}

export function RunFilters({ filter, onChange }: { filter: RunFilter; onChange(filter: RunFilter): void }) {
  return (
    <form
      className={styles.filters}
      role="search"
      aria-label="Filter runs"
      onSubmit={(e) => e.preventDefault()}
    >
      <Field label="Pipeline">
        {(id) => (
          <input
            id={id}
            type="search"
            value={filter.pipeline ?? ''}
            placeholder="global/app/…/pipeline/…"
            onChange={(e) => onChange({ ...filter, pipeline: e.target.value })}
          />
        )}
      </Field>
      <Field label="Status">
        {(id) => (
          <select
            id={id}
            value={filter.status ?? ''}
            onChange={(e) => onChange({ ...filter, status: e.target.value as RunFilter['status'] })}
          >
            <option value="">any</option>
            {RUN_STATUSES.map((status) => (
              <option key={status}>{status}</option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Trigger">
        {(id) => (
          <select
            id={id}
            value={filter.trigger ?? ''}
            onChange={(e) => onChange({ ...filter, trigger: e.target.value as RunFilter['trigger'] })}
          >
            <option value="">any</option>
            {RUN_TRIGGERS.map((trigger) => (
              <option key={trigger}>{trigger}</option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Text" grow>
        {(id) => (
          <input
            id={id}
            type="search"
            value={filter.q ?? ''}
            placeholder="in inputs or errors"
            onChange={(e) => onChange({ ...filter, q: e.target.value })}
          />
        )}
      </Field>
    </form>
  );
}
