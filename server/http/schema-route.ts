/**
 * Endpoint 5 without credentials: editors fetch the pipeline schema by URL and cannot log in, and the
 * schema tells nothing but command names and parameters.
 */
import type { RequestHandler } from 'express';
import { generatePipelineSchema } from '../../shared/commands';
import { commandSchemaOf } from '../../shared/commands/core/schema';
import { PipeworkError } from '../../shared/errors';
import type { ServerServices } from '../services';
import { commandNameOf } from './command-routes';

const SCHEMA_COMMANDS = new Set(['pipe.schema.v7', 'pipeline.schema', 'pipeline.schema.get', 'pipe.schema']);

export function schemaHandler(services: ServerServices): RequestHandler {
  let cached: string | undefined;
  return (req, res, next) => {
    const name = commandNameOf(req);
    if (!name || !SCHEMA_COMMANDS.has(name)) return next();
    const pipe = req.query.pipe;
    if (name === 'pipe.schema' && typeof pipe === 'string' && pipe !== '') {
      const one = commandSchemaOf(services.commands.contracts(), pipe);
      if (one === null) {
        next(new PipeworkError('COMMAND_NOT_FOUND', `No command '${pipe}'.`, { parameter: 'pipe' }));
        return;
      }
      res.type('application/json').send(JSON.stringify(one));
      return;
    }
    cached ??= JSON.stringify(generatePipelineSchema(services.commands.contracts()));
    res.type('application/json').send(cached);
  };
}
