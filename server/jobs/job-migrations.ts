/**
 * The jobs module's tables, one list per database: a row per (job, scheduled time) that an instance claimed
 * (`INSERT ... ON CONFLICT DO NOTHING`: one run per tick in the installation) with how the run went, and the
 * jobs `job.stop` paused (the pipeline's version at the time: storing it again replaces the job, running).
 */
import type { ModuleMigrations } from '../db/sql';

const tables = (big: string) => `
  CREATE TABLE job_tick (
    pipeline_key TEXT NOT NULL,
    scheduled ${big} NOT NULL,
    instance TEXT NOT NULL,
    started ${big} NOT NULL,
    finished ${big},
    status TEXT NOT NULL,
    error TEXT,
    PRIMARY KEY (pipeline_key, scheduled)
  );
  CREATE TABLE job_stop (
    pipeline_key TEXT PRIMARY KEY,
    property_uuid TEXT NOT NULL,
    version INTEGER NOT NULL,
    stopped ${big} NOT NULL,
    stopped_by TEXT
  );`;

export const JOB_MIGRATIONS: ModuleMigrations = {
  sqlite: [
    {
      version: 1,
      description: 'job ticks and stopped jobs',
      up: (db) => db.exec(tables('INTEGER')),
    },
  ],
  postgres: [{ version: 1, description: 'job ticks and stopped jobs', sql: tables('bigint') }],
};
