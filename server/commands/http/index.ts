/** The http.* commands, for the server's command list. */
import type { CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { httpDelete } from './delete';
import { httpGet } from './get';
import { httpPatch } from './patch';
import { httpPost } from './post';
import { httpPut } from './put';

export const httpCommands: CommandDefinition<ServerServices>[] = [
  httpGet,
  httpPost,
  httpPut,
  httpPatch,
  httpDelete,
];
