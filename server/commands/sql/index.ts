/** The SQL commands. */
import type { CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { sqlQuery } from './query';

export const sqlCommands: CommandDefinition<ServerServices>[] = [sqlQuery];
