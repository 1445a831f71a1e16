/**
 * The run history, written once for SQLite and PostgreSQL through the SQL port; on a SQLite file the rows
 * are written by a thread of their own (`sqlite-run-writer.ts`).
 */
import { run, type SqlPort } from '../db/sql';
import type { RunTriggerKind } from './run-trigger';
import type { RunDetail, RunError, RunStatus, RunSummary } from './run-records';

interface RunRow {
  id: string;
  pipeline_key: string | null;
  pipeline_hash: string;
  trigger_kind: string;
  trigger_source: string | null;
  parent_id: string | null;
  username: string | null;
  user_uuid: string | null;
  status: string;
  created: number | string;
  started: number | string | null;
  finished: number | string | null;
  duration_ms: number | string | null;
  steps_executed: number | string | null;
  error_json: string | null;
  instance: string;
  background: number | string;
  detail_json?: string;
}

/** What the list may be filtered by (every field optional; all given ones must hold). */
export interface RunFilter {
  /** Only this user's runs (everyone's when absent: admins). */
  userUuid?: string;
  pipelineKey?: string;
  status?: RunStatus;
  trigger?: RunTriggerKind;
  username?: string;
  /** Created at or after / before (epoch millis). */
  from?: number;
  to?: number;
  /** Text in the run's input or error (case-insensitive). */
  text?: string;
  parentId?: string;
  /** Only runs started in the background (true) or only the others (false). */
  async?: boolean;
  limit: number;
  offset: number;
}

/** The part of a detail kept as JSON text. */
type DetailJson = Pick<RunDetail, 'source' | 'input' | 'output' | 'steps' | 'resume'>;

const SUMMARY_COLUMNS = `id, pipeline_key, pipeline_hash, trigger_kind, trigger_source, parent_id, username,
  user_uuid, status, created, started, finished, duration_ms, steps_executed, error_json, instance, background`;

const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

function summaryOf(row: RunRow): RunSummary {
  return {
    id: row.id,
    pipelineKey: row.pipeline_key,
    pipelineHash: row.pipeline_hash,
    trigger: {
      kind: row.trigger_kind as RunTriggerKind,
      ...(row.trigger_source === null ? {} : { source: row.trigger_source }),
    },
    parentId: row.parent_id,
    username: row.username,
    userUuid: row.user_uuid,
    status: row.status as RunStatus,
    created: Number(row.created),
    started: num(row.started),
    finished: num(row.finished),
    durationMs: num(row.duration_ms),
    stepsExecuted: num(row.steps_executed),
    error: row.error_json === null ? null : (JSON.parse(row.error_json) as RunError),
    instance: row.instance,
    async: Number(row.background) === 1,
  };
}

/** Which pipeline a run counts against for retention and limits: its key, or its inline text's hash. */
export function pipelineRefOf(run: Pick<RunSummary, 'pipelineKey' | 'pipelineHash'>): string {
  return run.pipelineKey ?? `inline:${run.pipelineHash}`;
}

/** What is written of a run: its row's values, taken when it was queued for writing. */
export interface RunWrite {
  run: RunDetail;
  /** The text its search looks in: the start of its input and its error. */
  searchText: string;
  /** Its `DetailJson` as text. */
  detailJson: string;
}

/** The search text holds the start of the input and the error. */
const MAX_SEARCH_CHARS = 4096;

/** The JSON of the sources runs share (the recorder hands out one source object per text seen). */
const sourceJsons = new WeakMap<object, string>();

function sourceJsonOf(source: RunDetail['source']): string {
  if (source === null) return 'null';
  let json = sourceJsons.get(source);
  if (json === undefined) {
    json = JSON.stringify(source);
    sourceJsons.set(source, json);
  }
  return json;
}

/** JSON of a member that may be missing: null, as the detail reads it back. */
const jsonOf = (value: unknown): string => (value === undefined ? 'null' : JSON.stringify(value));

/** A run as written: its input turned into text once, for the search and the detail alike. */
export function runWriteOf(run: RunDetail): RunWrite {
  const input = run.input === null ? 'null' : jsonOf(run.input);
  const error = run.error ? `${run.error.code} ${run.error.message}` : '';
  const searched = run.input === null ? '' : input.slice(0, MAX_SEARCH_CHARS);
  // The members of `DetailJson`, in its order, each already JSON.
  const detailJson =
    `{"source":${sourceJsonOf(run.source)},"input":${input},"output":${jsonOf(run.output)},` +
    `"steps":${jsonOf(run.steps)},"resume":${jsonOf(run.resume)}}`;
  return { run, searchText: `${searched}\n${error}`.slice(0, MAX_SEARCH_CHARS * 2), detailJson };
}

/** A run's row, new or changed (the first row of an async run, then its end). */
const UPSERT_SQL = `INSERT INTO pipeline_run (id, pipeline_ref, pipeline_key, pipeline_hash, trigger_kind,
     trigger_source, parent_id, username, user_uuid, status, created, started, finished, duration_ms,
     steps_executed, error_json, search_text, instance, detail_json, background)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
   ON CONFLICT (id) DO UPDATE SET status = excluded.status, started = excluded.started,
     finished = excluded.finished, duration_ms = excluded.duration_ms,
     steps_executed = excluded.steps_executed, error_json = excluded.error_json,
     search_text = excluded.search_text, instance = excluded.instance, detail_json = excluded.detail_json`;

/** `UPSERT_SQL` with SQLite's placeholders (its parameters are used once each, in order). */
export const SQLITE_UPSERT_SQL = UPSERT_SQL.replace(/\$\d+/g, '?');

/** The values of `UPSERT_SQL`'s placeholders, in order. */
function upsertParams(write: RunWrite): unknown[] {
  const r = write.run;
  return [
    r.id,
    pipelineRefOf(r),
    r.pipelineKey,
    r.pipelineHash,
    r.trigger.kind,
    r.trigger.source ?? null,
    r.parentId,
    r.username,
    r.userUuid,
    r.status,
    r.created,
    r.started,
    r.finished,
    r.durationMs,
    r.stepsExecuted,
    r.error === null ? null : JSON.stringify(r.error),
    write.searchText,
    r.instance,
    write.detailJson,
    r.async ? 1 : 0,
  ];
}

/** Writes batches of rows of `UPSERT_SQL` elsewhere (a SQLite file's own writer thread). */
export interface RunRowWriter {
  write(rows: readonly unknown[][]): Promise<void>;
  close(): Promise<void>;
}

export class RunStore {
  /** `writer`: where rows go instead of `sql` (SQLite files: a thread of their own). */
  constructor(
    private readonly sql: SqlPort,
    private readonly writer?: RunRowWriter,
  ) {}

  /** Writes runs (new or changed) in one transaction. */
  async write(writes: readonly RunWrite[]): Promise<void> {
    if (writes.length === 0) return;
    if (this.writer) {
      await this.writer.write(writes.map(upsertParams));
      return;
    }
    await this.sql.transaction(function* () {
      for (const write of writes) yield* run(UPSERT_SQL, upsertParams(write));
    });
  }

  /** Ends the writer (after the last write). */
  async close(): Promise<void> {
    await this.writer?.close();
  }

  async get(id: string): Promise<RunDetail | undefined> {
    const row = await this.sql.get<RunRow>(
      `SELECT ${SUMMARY_COLUMNS}, detail_json FROM pipeline_run WHERE id = $1`,
      [id],
    );
    if (!row) return undefined;
    const detail = JSON.parse(row.detail_json!) as DetailJson;
    return { ...summaryOf(row), ...detail };
  }

  /** The WHERE clause of a filter with its parameters. */
  private whereOf(filter: RunFilter): { clause: string; params: unknown[] } {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, value: unknown): void => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (filter.userUuid !== undefined) add('user_uuid = ?', filter.userUuid);
    if (filter.pipelineKey !== undefined) add('pipeline_key = ?', filter.pipelineKey);
    if (filter.status !== undefined) add('status = ?', filter.status);
    if (filter.trigger !== undefined) add('trigger_kind = ?', filter.trigger);
    if (filter.username !== undefined) add('username = ?', filter.username);
    if (filter.parentId !== undefined) add('parent_id = ?', filter.parentId);
    if (filter.async !== undefined) add('background = ?', filter.async ? 1 : 0);
    if (filter.from !== undefined) add('created >= ?', filter.from);
    if (filter.to !== undefined) add('created < ?', filter.to);
    if (filter.text !== undefined && filter.text !== '') {
      const escaped = filter.text.replace(/[\\%_]/g, (c) => `\\${c}`);
      add(`search_text ${this.sql.dialect.likeIgnoringCase} ? ESCAPE '\\'`, `%${escaped}%`);
    }
    return { clause: where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`, params };
  }

  /** Runs matching the filter, newest first, with how many match in all. */
  async list(filter: RunFilter): Promise<{ runs: RunSummary[]; total: number }> {
    const { clause, params } = this.whereOf(filter);
    const count = await this.sql.get<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM pipeline_run ${clause}`,
      params,
    );
    const rows = await this.sql.all<RunRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM pipeline_run ${clause} ORDER BY created DESC, id DESC
       LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, filter.limit, filter.offset],
    );
    return { runs: rows.map(summaryOf), total: Number(count?.n ?? 0) };
  }

  /** Runs matching the filter with everything recorded of them, newest first (no total). */
  async details(filter: RunFilter): Promise<RunDetail[]> {
    const { clause, params } = this.whereOf(filter);
    const rows = await this.sql.all<RunRow>(
      `SELECT ${SUMMARY_COLUMNS}, detail_json FROM pipeline_run ${clause} ORDER BY created DESC, id DESC
       LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, filter.limit, filter.offset],
    );
    return rows.map((row) => ({ ...summaryOf(row), ...(JSON.parse(row.detail_json!) as DetailJson) }));
  }

  /** Marks a queued or running run to be cancelled by the instance that runs it; false when finished. */
  async requestCancel(id: string): Promise<boolean> {
    const result = await this.sql.run(
      `UPDATE pipeline_run SET cancel_requested = 1 WHERE id = $1 AND status IN ('queued', 'running')`,
      [id],
    );
    return result.changes > 0;
  }

  /** Of these run ids, the ones someone asked to cancel. */
  async cancelRequested(ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const placeholders = ids.map((_, i) => `$${i + 1}`).join(', ');
    const rows = await this.sql.all<{ id: string }>(
      `SELECT id FROM pipeline_run WHERE cancel_requested = 1 AND id IN (${placeholders})`,
      ids,
    );
    return rows.map((r) => r.id);
  }

  /**
   * Retention: deletes finished runs older than `maxAgeMillis` and, per pipeline, all but the newest
   * `keepPerPipeline` finished runs. Returns how many were deleted.
   */
  async prune(now: number, maxAgeMillis: number, keepPerPipeline: number): Promise<number> {
    const old = await this.sql.run(
      `DELETE FROM pipeline_run WHERE created < $1 AND status IN ('succeeded', 'failed', 'cancelled')`,
      [now - maxAgeMillis],
    );
    const extra = await this.sql.run(
      `DELETE FROM pipeline_run WHERE id IN (
         SELECT id FROM (
           SELECT id, ROW_NUMBER() OVER (PARTITION BY pipeline_ref ORDER BY created DESC, id DESC) AS n
           FROM pipeline_run WHERE status IN ('succeeded', 'failed', 'cancelled')
         ) ranked WHERE n > $1)`,
      [keepPerPipeline],
    );
    return old.changes + extra.changes;
  }
}
