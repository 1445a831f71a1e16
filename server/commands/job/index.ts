/** Every job* command, for the server's command list. */
import type { CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { job } from './job';
import { jobList } from './list';
import { jobStatus } from './status';
import { jobStop } from './stop';

export const jobCommands: CommandDefinition<ServerServices>[] = [job, jobList, jobStatus, jobStop];
