/** Pipeline jobs: stored pipelines that start with `job`, run on schedule once per installation. */
import { migrateModule, type SqlPort } from '../db/sql';
import { JOB_MIGRATIONS } from './job-migrations';
import { JobStore } from './job-store';

export { parseJobSchedule, FIXED_SCHEDULES, type JobSchedule } from './job-schedule';
export { jobOfProperty, jobOfScript, type JobDefinition } from './job-definition';
export { JobStore, type JobTickRecord, type JobVersion } from './job-store';
export {
  JobScheduler,
  formatDuration,
  type JobRunOutcome,
  type JobSchedulerOptions,
  type JobStatus,
} from './job-scheduler';

/** Creates or upgrades the job tables and returns their store. */
export async function openJobStore(sql: SqlPort): Promise<JobStore> {
  await migrateModule(sql, 'jobs', JOB_MIGRATIONS);
  return new JobStore(sql);
}
