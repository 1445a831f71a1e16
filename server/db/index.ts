export { openDatabase, type SqliteDatabase } from './open-database';
export { migrate, type Migration } from './migrations';
