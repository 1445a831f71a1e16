/**
 * What the routes that stream a command's body or answer (attachments, drive) share with the buffered command
 * route: whether a request carries a raw body to stream, and the caller checked and the parameters validated
 * against the command's contract before any byte moves.
 */
import type { Request, Response } from 'express';
export { hasRawBody } from './raw-upload';
import type { Principal } from '../../shared/auth';
import { validateParameters } from '../../shared/commands';
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
