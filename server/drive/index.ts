/** The drive: files per user and shared, under the data folder. */
export { DriveService, mimeTypeOf, type DriveEntry, type DriveFile } from './drive-service';
export { parseDrivePath, splitDrivePath, type DrivePath } from './drive-path';
export { loadDriveConfig, type DriveConfig } from './drive-config';
