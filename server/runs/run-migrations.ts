/**
 * The run history's table, one list per database: a row per run with its summary columns (filtered and
 * sorted on) and the rest (source, input, output, steps, resume point) as JSON text.
 */
import type { ModuleMigrations } from '../db/sql';

const columns = (text: string, big: string): string => `
  CREATE TABLE pipeline_run (
    id ${text} PRIMARY KEY,
    pipeline_ref ${text} NOT NULL,
    pipeline_key ${text},
    pipeline_hash ${text} NOT NULL,
    trigger_kind ${text} NOT NULL,
    trigger_source ${text},
    parent_id ${text},
    username ${text},
    user_uuid ${text},
    status ${text} NOT NULL,
    created ${big} NOT NULL,
    started ${big},
    finished ${big},
    duration_ms ${big},
    steps_executed ${big},
    error_json ${text},
    search_text ${text} NOT NULL,
    instance ${text} NOT NULL,
    cancel_requested integer NOT NULL DEFAULT 0,
    detail_json ${text} NOT NULL
  );
  CREATE INDEX pipeline_run_created ON pipeline_run (created);
  CREATE INDEX pipeline_run_ref ON pipeline_run (pipeline_ref, created);
  CREATE INDEX pipeline_run_user ON pipeline_run (user_uuid, created);
  CREATE INDEX pipeline_run_status ON pipeline_run (status, created);`;

/** Version 2: whether the run was started in the background (an async run: what `async.list` lists). */
const background = `
  ALTER TABLE pipeline_run ADD COLUMN background integer NOT NULL DEFAULT 0;
  CREATE INDEX pipeline_run_background ON pipeline_run (user_uuid, background, created);`;

export const RUN_MIGRATIONS: ModuleMigrations = {
  sqlite: [
    { version: 1, description: 'the run history', up: (db) => db.exec(columns('TEXT', 'INTEGER')) },
    { version: 2, description: 'async runs marked', up: (db) => db.exec(background) },
  ],
  postgres: [
    { version: 1, description: 'the run history', sql: columns('text', 'bigint') },
    { version: 2, description: 'async runs marked', sql: background },
  ],
};
