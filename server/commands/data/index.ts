/** Reshaping data: mapping rules, list filters and sorting. */
import type { CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { dataListFilter } from './list-filter';
import { dataListSort } from './list-sort';
import { dataMapping } from './mapping';

export const dataCommands: CommandDefinition<ServerServices>[] = [
  dataMapping,
  dataListFilter,
  dataListSort,
] as CommandDefinition<ServerServices>[];
