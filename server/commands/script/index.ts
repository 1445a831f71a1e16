/** The script.* commands, for the server's command list. */
import type { CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { scriptRun } from './run';

export const scriptCommands: CommandDefinition<ServerServices>[] = [scriptRun];
