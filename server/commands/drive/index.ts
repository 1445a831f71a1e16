/** Every drive.* command, for the server's command list. */
import type { CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { driveCopy } from './copy';
import { driveDelete } from './delete';
import { driveExists } from './exists';
import { driveList } from './list';
import { driveMkdir } from './mkdir';
import { driveMove } from './move';
import { driveRead } from './read';
import { driveSave } from './save';

export const driveCommands: CommandDefinition<ServerServices>[] = [
  driveSave,
  driveRead,
  driveList,
  driveExists,
  driveDelete,
  driveMkdir,
  driveCopy,
  driveMove,
];
