/** The jobs' tables through the SQL port (SQLite or PostgreSQL): tick claims, run outcomes, stops. */
import type { SqlPort } from '../db/sql';

/** One stored version of a job's pipeline. */
export interface JobVersion {
  pipelineKey: string;
  uuid: string;
  version: number;
}

/** How the last finished (or running) tick of a job went. */
export interface JobTickRecord {
  scheduled: number;
  started: number;
  finished: number | null;
  status: 'running' | 'succeeded' | 'failed' | 'skipped';
  error: string | null;
}

interface TickRow {
  scheduled: number | string;
  started: number | string;
  finished: number | string | null;
  status: string;
  error: string | null;
}

/** Ticks kept per job: older rows go when a new one is claimed. */
const KEEP_MS = 7 * 24 * 60 * 60_000;

export class JobStore {
  constructor(private readonly sql: SqlPort) {}

  /**
   * Claims the tick `scheduled` of a job for `instance`: true for the one caller in the installation whose row
   * went in, so each tick runs once however many instances are due at the same time.
   */
  async claim(pipelineKey: string, scheduled: number, instance: string, now: number): Promise<boolean> {
    const result = await this.sql.run(
      `INSERT INTO job_tick (pipeline_key, scheduled, instance, started, status)
       VALUES ($1, $2, $3, $4, 'running') ON CONFLICT DO NOTHING`,
      [pipelineKey, scheduled, instance, now],
    );
    if (result.changes !== 1) return false;
    await this.sql.run('DELETE FROM job_tick WHERE pipeline_key = $1 AND scheduled < $2', [
      pipelineKey,
      now - KEEP_MS,
    ]);
    return true;
  }

  /** Records how a claimed tick ended. */
  async finish(
    pipelineKey: string,
    scheduled: number,
    finished: number,
    status: JobTickRecord['status'],
    error: string | null,
  ): Promise<void> {
    await this.sql.run(
      'UPDATE job_tick SET finished = $3, status = $4, error = $5 WHERE pipeline_key = $1 AND scheduled = $2',
      [pipelineKey, scheduled, finished, status, error],
    );
  }

  /** The newest tick of a job in the installation (any instance's), or undefined. */
  async lastTick(pipelineKey: string): Promise<JobTickRecord | undefined> {
    const row = await this.sql.get<TickRow>(
      `SELECT scheduled, started, finished, status, error FROM job_tick WHERE pipeline_key = $1
       ORDER BY scheduled DESC LIMIT 1`,
      [pipelineKey],
    );
    if (!row) return undefined;
    return {
      scheduled: Number(row.scheduled),
      started: Number(row.started),
      finished: row.finished === null ? null : Number(row.finished),
      status: row.status as JobTickRecord['status'],
      error: row.error,
    };
  }

  /** Whether `job.stop` paused this version of the pipeline (a pipeline stored again runs again). */
  async isStopped(version: JobVersion): Promise<boolean> {
    const row = await this.sql.get(
      'SELECT 1 AS one FROM job_stop WHERE pipeline_key = $1 AND property_uuid = $2 AND version = $3',
      [version.pipelineKey, version.uuid, version.version],
    );
    return row !== undefined;
  }

  async stop(version: JobVersion, now: number, by: string | null): Promise<void> {
    await this.sql.run(
      `INSERT INTO job_stop (pipeline_key, property_uuid, version, stopped, stopped_by) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (pipeline_key) DO UPDATE SET property_uuid = $2, version = $3, stopped = $4, stopped_by = $5`,
      [version.pipelineKey, version.uuid, version.version, now, by],
    );
  }
}
