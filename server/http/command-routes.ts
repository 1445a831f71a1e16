/** Endpoints 1-3: `GET|POST /api/v3/command/<name>` and `/api/v3/command:<name>` run one command. */
import type { Request, RequestHandler } from 'express';
import { PipeworkError } from '../../shared/errors';
import type { PipelineScript } from '../../shared/pipeline';
import type { ServerServices } from '../services';
import { requestTrigger } from './request-trigger';
import { executePipeline } from '../pipeline/execute-pipeline';
import { readCommandRequest } from './request-input';
import { clientGone, requestScope } from './request-scope';
import { sendResult } from './send-result';
import { discardUpload } from './raw-upload';
import { requestSpool } from './upload-spool';

/** `/api/v3/command/<name>`, `/api/v3/command:<name>` and `/api/v3/pipe:<name>` (the form editors use). */
export const COMMAND_PATH = /^\/api\/v3\/(?:command[/:]|pipe:)([^/]+)\/?$/;

/** The command named in the request's path (read once per request, kept in `res.locals`; several handlers ask). */
export function commandNameOf(req: Request): string | undefined {
  const locals = req.res!.locals;
  if ('commandName' in locals) return locals.commandName as string | undefined;
  const match = COMMAND_PATH.exec(req.path);
  let name: string | undefined;
  try {
    name = match ? decodeURIComponent(match[1]!) : undefined;
  } catch {
    name = match![1]; // not valid percent-encoding: the raw text, which names no command
  }
  locals.commandName = name;
  return name;
}

/**
 * The commands that hand out tokens answer without credentials, as the real product's clients call them
 * (`iam.token?username=..&password=..`): a request without an `Authorization` header runs them anonymously
 * (password guesses counted against the client address); with one, the caller is authenticated as usual.
 */
export const PUBLIC_TOKEN_COMMANDS: ReadonlySet<string> = new Set([
  'iam.token',
  'iam.token.refresh',
  'iam.token.logout',
  'iam.apitoken',
]);

/**
 * A call without credentials takes the command's own parameters as plain values only: no `#{...}` (nothing is
 * evaluated for an anonymous caller) and none of the common parameters (`if`, `output`, `eval`, ...).
 */
function refuseExpressions(name: string, params: Record<string, unknown>, declared: object): void {
  for (const [parameter, value] of Object.entries(params)) {
    if (!Object.hasOwn(declared, parameter)) {
      throw new PipeworkError(
        'PARAM_INVALID',
        `Without credentials, '${name}' takes only its own parameters.`,
        {
          parameter,
        },
      );
    }
    if (
      (typeof value === 'string' && value.includes('#{')) ||
      (typeof value === 'object' && value !== null)
    ) {
      throw new PipeworkError(
        'PARAM_INVALID',
        `Without credentials, parameters are plain text, never expressions.`,
        {
          parameter,
        },
      );
    }
  }
}

/** Runs a public token command for a caller without credentials; others go on to authentication. */
export function publicTokenCommandHandler(services: ServerServices): RequestHandler {
  const run = commandHandler(services, { anonymous: true });
  return (req, res, next) => {
    const name = commandNameOf(req);
    if (name === undefined || !PUBLIC_TOKEN_COMMANDS.has(name) || req.headers.authorization !== undefined) {
      return next();
    }
    res.locals.principal = null;
    return run(req, res, next);
  };
}

/** Runs the command named in the path as a one-step pipeline. */
export function commandHandler(
  services: ServerServices,
  options: { anonymous?: boolean } = {},
): RequestHandler {
  return async (req, res, next) => {
    const name = commandNameOf(req);
    if (name === undefined) return next();
    try {
      const { contract } = services.commands.require(name);
      const { params, input } = await readCommandRequest(req, contract, {
        bodyLimit: services.config.limits.commandBodyBytes,
        uploadLimit: services.config.limits.uploadBytes,
        spool: requestSpool(services, res),
      });
      if (options.anonymous) refuseExpressions(name, params, contract.parameters);
      const script: PipelineScript = {
        source: 'uri',
        headers: {},
        vars: {},
        steps: [{ index: 0, command: name, params }],
        body: input,
      };
      const result = await executePipeline(services, script, {
        principal: options.anonymous ? null : res.locals.principal,
        trigger: requestTrigger(req, 'http'),
        publicCommand: options.anonymous ? name : undefined,
        request: options.anonymous
          ? () => ({ ...requestScope(req), remoteAddress: req.socket.remoteAddress })
          : () => requestScope(req),
        cancellation: clientGone(res),
        traceId: res.locals.traceId,
        topLevel: true,
      });
      await sendResult(res, result.body);
    } catch (error) {
      if (!res.headersSent) discardUpload(req);
      next(error);
    }
  };
}
