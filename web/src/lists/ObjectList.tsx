/**
 * An object's instances as a table: columns from the schema's titles, sorting by a column header, a filter
 * per column and a search, rows drawn only where visible (@tanstack/react-virtual) and fetched by page from
 * the server, so many thousands of instances scroll smoothly. Opens an instance in its form, deletes with
 * confirmation, exports the filtered rows as CSV; follows changes through the event stream.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useDeferredValue, useMemo, useRef, useState, type CSSProperties } from 'react';
import { useApi } from '../api';
import { configFor, configuredColumns } from '../forms/app-config';
import { columnsOf, normalizeSchema } from '../forms/form-schema';
import { InstanceListRow } from './InstanceListRow';
import { toCsv } from './list-csv';
import styles from './lists.module.css';
import { RowSlots } from './row-slots';
import {
  listQueryKey,
  pageParams,
  useInstancePages,
  useLiveInstances,
  type InstanceRow,
  type InstancesPage,
  type ListQuery,
} from './useInstancePages';

const ROW_HEIGHT = 32;
/** A row's least width (see lists.module.css): 120 px a column, 150 px of actions, 8 px gaps, 8 px padding. */
const minRowWidth = (columns: number) => columns * (120 + 8) + 150 + 16;
const EXPORT_LIMIT = 100_000;

export interface ObjectListProps {
  object: string;
  onOpen: (key: string) => void;
  onNew: () => void;
}

export function ObjectList({ object, onOpen, onNew }: ObjectListProps) {
  const api = useApi();
  const queryClient = useQueryClient();
  const schema = useQuery({
    queryKey: ['form-schema', object],
    queryFn: () => api.command<unknown>('property.value.get', { key: `${object}/schema` }),
  });
  const app = object.split('/object/')[0] ?? object;
  const configs = useQuery({
    queryKey: ['app-configs', app, 'list'],
    queryFn: () =>
      api.command<{ key: string; value?: unknown }[]>('property.list', { pattern: `${app}/list/**` }),
  });
  const config = useMemo(() => configFor(configs.data ?? [], object), [configs.data, object]);
  const columns = useMemo(() => {
    if (schema.data === undefined || configs.isPending) return undefined;
    try {
      const raw = typeof schema.data === 'string' ? (JSON.parse(schema.data) as unknown) : schema.data;
      return configuredColumns(columnsOf(normalizeSchema(raw)), config);
    } catch {
      return undefined;
    }
  }, [schema.data, configs.isPending, config]);
  const [sort, setSort] = useState<{ field: string; descending: boolean } | undefined>();
  const [filterText, setFilterText] = useState<Record<string, string>>({});
  const filters = useDeferredValue(filterText);
  const query: ListQuery = useMemo(
    () => ({
      object,
      ...(sort ? { sort: sort.field, descending: sort.descending } : {}),
      filters: Object.entries(filters)
        .filter(([, v]) => v.trim() !== '')
        .map(([field, value]) => ({ field, op: 'contains' as const, value: value.trim() })),
    }),
    [object, sort, filters],
  );
  useLiveInstances(object);
  const scroller = useRef<HTMLDivElement>(null);
  const [range, setRange] = useState({ first: 0, last: 50 });
  const pages = useInstancePages(query, range.first, range.last);
  // The virtualizer's functions change as it scrolls: this component is left unmemoized, as the rule says.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: pages.total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    // Rows drawn beyond the view on each side: enough for a wheel step, few enough that a jump lays out little.
    overscan: 5,
    // The rows scrolled into view are drawn in a task of their own, not inside the frame's scroll event (one
    // long task: the render, then the layout and paint of all the new rows).
    useFlushSync: false,
    onChange: (v) => {
      const items = v.getVirtualItems();
      const first = items[0]?.index ?? 0;
      const last = items.at(-1)?.index ?? 0;
      setRange((r) => (r.first === first && r.last === last ? r : { first, last }));
    },
  });
  const [message, setMessage] = useState('');
  const [rowSlots] = useState(() => new RowSlots());

  const remove = useCallback(
    async (row: InstanceRow) => {
      if (!window.confirm(`Delete ${row.key}? This cannot be undone.`)) return;
      try {
        await api.command('property.delete', { key: row.key }, { method: 'POST' });
        setMessage(`Deleted ${row.key}.`);
        void queryClient.invalidateQueries({ queryKey: listQueryKey(object) });
      } catch (error) {
        setMessage(`Not deleted: ${(error as Error).message}`);
      }
    },
    [api, object, queryClient],
  );
  const onDelete = useCallback((row: InstanceRow) => void remove(row), [remove]);

  if (schema.isError)
    return (
      <p role="alert">
        The schema {object}/schema cannot be read: {(schema.error as Error).message}
      </p>
    );
  if (!columns) return <p>Loading the list…</p>;

  const exportCsv = async () => {
    const rows: InstanceRow[] = [];
    for (let page = 0; rows.length < Math.min(pages.total, EXPORT_LIMIT); page++) {
      const got = await api.command<InstancesPage>('property.object.instances', pageParams(query, page, 500));
      rows.push(...got.instances);
      if (got.instances.length < 500) break;
    }
    const url = URL.createObjectURL(new Blob([toCsv(columns, rows)], { type: 'text/csv' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `${object.split('/object/')[1]?.replace(/\//g, '-') ?? 'list'}.csv`;
    link.click();
    URL.revokeObjectURL(url);
    setMessage(`Exported ${rows.length} rows.`);
  };

  const toggleSort = (field: string) =>
    setSort((s) =>
      s?.field === field ? { field, descending: !s.descending } : { field, descending: false },
    );
  const ariaSort = (field: string) =>
    sort?.field === field ? (sort.descending ? 'descending' : 'ascending') : 'none';
  const virtualItems = virtualizer.getVirtualItems();
  // A row keeps its DOM while in view; rows coming into view reuse those of rows leaving it (see RowSlots).
  const slots = rowSlots.assign(virtualItems.map((item) => item.index));
  const name = config?.title ?? object.split('/object/')[1] ?? object;

  return (
    <section className={styles.list} aria-label={`List ${name}`}>
      <header className={styles.toolbar}>
        <h2>{name}</h2>
        <span role="status" aria-live="polite" data-testid="list-total">
          {pages.loading ? 'Loading…' : `${pages.total} instances`}
        </span>
        <button type="button" onClick={onNew}>
          New
        </button>
        <button type="button" onClick={() => void exportCsv()} disabled={pages.total === 0}>
          Export CSV
        </button>
      </header>
      {config?.description && <p className={styles.message}>{config.description}</p>}
      {pages.error && <p role="alert">{pages.error.message}</p>}
      <div
        role="table"
        aria-label={`Instances of ${name}`}
        aria-rowcount={pages.total + 2}
        className={styles.table}
        style={{ '--list-min-width': `${minRowWidth(columns.length)}px` } as CSSProperties}
      >
        <div role="rowgroup">
          <div role="row" className={styles.headRow}>
            {columns.map((c) => (
              <div role="columnheader" aria-sort={ariaSort(c.field)} key={c.field} className={styles.column}>
                <button type="button" className={styles.sortButton} onClick={() => toggleSort(c.field)}>
                  {c.title}
                  {sort?.field === c.field ? (sort.descending ? ' ▼' : ' ▲') : ''}
                </button>
              </div>
            ))}
            <div role="columnheader" className={styles.actionsColumn}>
              Actions
            </div>
          </div>
          <div role="row" className={styles.headRow}>
            {columns.map((c) => (
              <div role="cell" key={c.field} className={styles.column}>
                <input
                  aria-label={`Filter ${c.title}`}
                  placeholder="Filter"
                  value={filterText[c.field] ?? ''}
                  onChange={(e) => setFilterText((f) => ({ ...f, [c.field]: e.target.value }))}
                />
              </div>
            ))}
            <div role="cell" className={styles.actionsColumn} />
          </div>
        </div>
        <div ref={scroller} className={styles.scroller} role="rowgroup" data-testid="list-rows">
          <div className={styles.sizer} style={{ height: virtualizer.getTotalSize() }}>
            {virtualItems.map((item, i) => (
              <InstanceListRow
                key={slots[i]}
                index={item.index}
                start={item.start}
                row={pages.rowAt(item.index)}
                columns={columns}
                onOpen={onOpen}
                onDelete={onDelete}
              />
            ))}
          </div>
        </div>
      </div>
      <p role="status" aria-live="polite" className={styles.message}>
        {message}
      </p>
    </section>
  );
}
