/** Flow between pipelines: switch, starting stored pipelines, call. */
import type { CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { call } from './call';
import { macro, macroRun } from './macro';
import { pipelineGet } from './pipeline-get';
import { pipelineRun, pipelineStart } from './pipeline-start';
import { switchCommand } from './switch';

export const flowCommands: CommandDefinition<ServerServices>[] = [
  switchCommand as CommandDefinition<ServerServices>,
  pipelineStart,
  pipelineRun,
  call,
  macro,
  macroRun,
  pipelineGet,
];
