/** Every event.* command, for the server's command list. */
import type { CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { eventListen } from './listen';

export const eventCommands: CommandDefinition<ServerServices>[] = [eventListen];
