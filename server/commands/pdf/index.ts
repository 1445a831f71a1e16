/** Every pdf.* command, for the server's command list. */
import type { CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { pdfCreate } from './create';
import { pdfStamp } from './stamp';

export const pdfCommands: CommandDefinition<ServerServices>[] = [pdfStamp, pdfCreate];
