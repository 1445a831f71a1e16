/** Every async.* command (docs/runs.md): polling, listing and cancelling async runs. */
import type { CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { asyncCancel, asyncPing } from './cancel';
import { asyncList } from './list';
import { asyncPoll } from './poll';

export const asyncCommands: CommandDefinition<ServerServices>[] = [
  asyncPoll,
  asyncList,
  asyncCancel,
  asyncPing,
];
