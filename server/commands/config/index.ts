/** `config.get`, for the server's command list. */
import type { CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { configGet } from './get';

export const configCommands: CommandDefinition<ServerServices>[] = [configGet];
