/** Every cache.* command, for the server's command list. */
import type { CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { cacheClear } from './clear';
import { cacheGet } from './get';
import { cacheHas } from './has';
import { cachePut } from './put';
import { cacheRemove } from './remove';

export const cacheCommands: CommandDefinition<ServerServices>[] = [
  cachePut,
  cacheGet,
  cacheHas,
  cacheRemove,
  cacheClear,
];
