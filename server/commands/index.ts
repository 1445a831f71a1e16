/** Every command this server offers: the core ones and those that need the server's services. */
import { coreCommands, type CommandDefinition } from '../../shared/commands';
import type { ServerServices } from '../services';
import { driveCommands } from './drive';
import { mailCommands } from './mail';
import { deliveryCommands } from './delivery';
import { secretCommands } from './secret';
import { pdfCommands } from './pdf';
import { cacheCommands } from './cache';
import { cryptoCommands } from './crypto';
import { configCommands } from './config';
import { serverInfoCommands } from './server';
import { eventCommands } from './event';
import { flowCommands } from './flow';
import { httpCommands } from './http';
import { iamCommands } from './iam';
import { barcodeCommands } from './barcode';
import { dataCommands } from './data';
import { jsonCommands } from './json';
import { propertyCommands } from './property';
import { resolveCommands } from './resolve/resolve';
import { scriptCommands } from './script';
import { sqlCommands } from './sql';
import { transformCommands } from './transform';
import { testCommands } from './test';
import { jobCommands } from './job';
import { webhookCommands } from './webhook';
import { asyncCommands } from './async';

export const serverCommands: CommandDefinition<ServerServices>[] = [
  ...coreCommands,
  ...iamCommands,
  ...propertyCommands,
  ...eventCommands,
  ...jobCommands,
  ...webhookCommands,
  ...asyncCommands,
  ...driveCommands,
  ...mailCommands,
  ...deliveryCommands,
  ...secretCommands,
  ...pdfCommands,
  ...cacheCommands,
  ...cryptoCommands,
  ...configCommands,
  ...serverInfoCommands,
  ...scriptCommands,
  ...httpCommands,
  ...sqlCommands,
  ...dataCommands,
  ...transformCommands,
  ...jsonCommands,
  ...barcodeCommands,
  ...flowCommands,
  ...resolveCommands,
  ...testCommands,
];
