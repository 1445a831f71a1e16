/** `encrypt` and `decrypt`, for the server's command list. */
import type { CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { decrypt } from './decrypt';
import { encrypt } from './encrypt';

export const cryptoCommands: CommandDefinition<ServerServices>[] = [encrypt, decrypt];
