/** `server.info` and `log.list`, for the server's command list. */
import type { CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { serverInfo } from './info';
import { logList } from './log-list';

export const serverInfoCommands: CommandDefinition<ServerServices>[] = [serverInfo, logList];
