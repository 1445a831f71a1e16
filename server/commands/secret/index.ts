/** Every secret.* command, for the server's command list. */
import type { CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { secretDelete } from './delete';
import { secretGet, secretList } from './get';
import { secretPut } from './put';
import { secretKeyRotate } from './rotate';

export const secretCommands: CommandDefinition<ServerServices>[] = [
  secretPut,
  secretGet,
  secretList,
  secretDelete,
  secretKeyRotate,
];
