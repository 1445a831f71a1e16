/** Barcodes. */
import type { CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { barcodeCreate } from './create';

export const barcodeCommands: CommandDefinition<ServerServices>[] = [
  barcodeCreate,
] as CommandDefinition<ServerServices>[];
