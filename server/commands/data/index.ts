/** Reshaping data: mapping rules, list filters, sorting, iterating and enriching. */
import type { CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { dataEnrich } from './enrich';
import { dataListFilter } from './list-filter';
import { dataListIterate } from './list-iterate';
import { dataListSort } from './list-sort';
import { dataMapping } from './mapping';

export const dataCommands: CommandDefinition<ServerServices>[] = [
  dataMapping,
  dataListFilter,
  dataListSort,
  dataListIterate,
  dataEnrich,
] as CommandDefinition<ServerServices>[];
