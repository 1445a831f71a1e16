/** Every mail.* command, for the server's command list. */
import type { CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { mailOutboxList } from './outbox-list';
import { mailOutboxRead } from './outbox-read';
import { mailSend } from './send';

export const mailCommands: CommandDefinition<ServerServices>[] = [mailSend, mailOutboxList, mailOutboxRead];
