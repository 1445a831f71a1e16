/** JSON documents: validation against JSON Schema. */
import type { CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { jsonValidate } from './validate';

export const jsonCommands: CommandDefinition<ServerServices>[] = [
  jsonValidate,
] as CommandDefinition<ServerServices>[];
