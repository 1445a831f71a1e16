/** App tests: `test.run` and `mock.command`. */
import type { CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { mockCommand } from './mock-command';
import { testRun } from './test-run';

export const testCommands: CommandDefinition<ServerServices>[] = [testRun, mockCommand];
