/**
 * Endpoint 5 without credentials: editors fetch the pipeline schema by URL and cannot log in, and the
 * schema tells nothing but command names and parameters.
 */
import type { RequestHandler } from 'express';
import { generatePipelineSchema } from '../../shared/commands';
import type { ServerServices } from '../services';
import { commandNameOf } from './command-routes';

const SCHEMA_COMMANDS = new Set(['pipe.schema.v7', 'pipeline.schema']);

export function schemaHandler(services: ServerServices): RequestHandler {
  let cached: string | undefined;
  return (req, res, next) => {
    const name = commandNameOf(req);
    if (!name || !SCHEMA_COMMANDS.has(name)) return next();
    cached ??= JSON.stringify(generatePipelineSchema(services.commands.contracts()));
    res.type('application/json').send(cached);
  };
}
