/**
 * What the routes that stream a command's body or answer (attachments, drive) share with the buffered command
 * route: whether a request carries a raw body to stream, and the caller checked and the parameters validated
 * against the command's contract before any byte moves.
 */
import type { Request, Response } from 'express';
import { hasRawBody } from './raw-upload';
export { hasRawBody };
import type { Principal } from '../../shared/auth';
import { validateParameters, type CommandContract, type CommandStreaming } from '../../shared/commands';
import { isMultipart } from './multipart';
import { authorizeCommand } from '../pipeline/authorize-command';
import type { ServerServices } from '../services';
import { normalizeParams } from './request-input';

/** The caller, allowed to run `name`, and the query's parameters validated by its contract. */
export function streamedCommandCall(
  services: ServerServices,
  name: string,
  req: Request,
  res: Response,
): { principal: Principal | null; params: Record<string, unknown> } {
  const { contract } = services.commands.require(name);
  const principal = res.locals.principal as Principal | null;
  authorizeCommand(principal, contract);
  const params = validateParameters(contract, normalizeParams(req.query as Record<string, string>, contract));
  return { principal, params };
}

/**
 * The streamed forms of the commands a route has code for, as their contracts declare them: a command is
 * streamed only where its contract says so (`streaming`), and only the way it says.
 */
export function streamedForms(
  commands: { get(name: string): { contract: CommandContract } | undefined },
  served: readonly string[],
): Map<string, CommandStreaming> {
  const forms = new Map<string, CommandStreaming>();
  for (const name of served) {
    const streaming = commands.get(name)?.contract.streaming;
    if (streaming) forms.set(name, streaming);
  }
  return forms;
}

/**
 * Which way the request streams the command, if its contract streams it so: `output` for a GET (and a HEAD
 * where ranges are answered), `input` for a POST whose body is raw, or multipart where parts are taken.
 */
export function streamedDirection(streaming: CommandStreaming, req: Request): 'input' | 'output' | undefined {
  if (streaming.output && (req.method === 'GET' || (req.method === 'HEAD' && streaming.output === 'ranges')))
    return 'output';
  if (!streaming.input || req.method !== 'POST' || !hasRawBody(req)) return undefined;
  return streaming.input.includes(isMultipart(req) ? 'multipart' : 'raw') ? 'input' : undefined;
}
