export { openDatabase, type SqliteDatabase } from './open-database';
export { migrate, type Migration } from './migrations';
export { InProcessJobLock, PostgresJobLock, type JobLock, type JobRun } from './installation-lock';
