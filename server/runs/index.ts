/** The run model: every pipeline execution recorded as a run (docs/runs.md), async runs, the history's API. */
import { migrateModule, SqliteSqlPort, type SqlPort } from '../db/sql';
import type { Logger } from '../logging/logger';
import type { RunHistoryConfig } from './run-history-config';
import { RUN_MIGRATIONS } from './run-migrations';
import { RunRecorder } from './run-recorder';
import { RunService } from './run-service';
import { RunStore, SQLITE_UPSERT_SQL } from './run-store';
import { SqliteRunWriter } from './sqlite-run-writer';

export { startAsyncRun } from './async-runs';
export { RunStore, pipelineRefOf, type RunFilter } from './run-store';
export { RunRecorder, type ActiveRun, type RecordRequest } from './run-recorder';
export { RunService } from './run-service';
export { loadRunHistoryConfig, DEFAULT_RUN_HISTORY, type RunHistoryConfig } from './run-history-config';
export { redact, addStringRedactor, isSecretName, REDACTED } from './redact';
export {
  RUN_STATUSES,
  isFinished,
  type RunDetail,
  type RunError,
  type RunResumePoint,
  type RunStatus,
  type RunSummary,
} from './run-records';
export { RUN_TRIGGER_KINDS, type RunTrigger, type RunTriggerKind } from './run-trigger';

/** Migrates the run table and builds the history (recorder, store, async queue). */
export async function createRunService(
  sql: SqlPort,
  config: RunHistoryConfig,
  logger: Logger,
): Promise<RunService> {
  await migrateModule(sql, 'runs', RUN_MIGRATIONS);
  const writer =
    sql instanceof SqliteSqlPort && !sql.db.memory
      ? new SqliteRunWriter(sql.db.name, SQLITE_UPSERT_SQL)
      : undefined;
  const store = new RunStore(sql, writer);
  return new RunService(store, new RunRecorder(store, config, logger), config, logger);
}
