/**
 * The public inbound URL of webhooks: `/api/v3/command/webhook.receive` (also `command:webhook.receive` and
 * `/api/v3/webhook/receive`), GET or POST, with the token as `token` query parameter or `token` header, or
 * with the webhook's `uuid` and the body signed with its secret (`webhook-signature.ts`). An unknown or
 * revoked token is the same plain 404 as an unknown path, with nothing read or run; so is a wrong signature
 * (found only after the body was read: nothing run). A known one
 * is rate-limited per webhook, its body read up to the webhook's limit (413 past it), and its pipeline run as
 * the webhook's creator bound by the pipeline's author, with the request as a content object for body:
 * by default in the background (202 with the run id as `correlationId`), with `wait=true` answering the result.
 */
import type { Request, RequestHandler } from 'express';
import type { Principal } from '../../shared/auth';
import { PipeworkError, isPipeworkError } from '../../shared/errors';
import { scriptOfProperty } from '../pipeline/stored-pipeline-script';
import { scriptWith } from '../../shared/pipeline';
import { executePipeline } from '../pipeline/execute-pipeline';
import { readStoredCode } from '../pipeline/stored-code-run-as';
import { startAsyncRun } from '../runs/async-runs';
import { SecretMask } from '../runs/secret-mask';
import type { ServerServices } from '../services';
import { signatureHeaderOf, verifyWebhookSignature, type Webhook } from '../webhooks';
import { sendAsyncStarted } from './async-answer';
import { WindowCounter } from './delivery-rate-limit';
import { readBody } from './read-body';
import { sendResult } from './send-result';

/** Longest token accepted: a real one is 43 characters; anything much longer is not looked up. */
const MAX_TOKEN_LENGTH = 128;

function tokenOf(req: Request): string | undefined {
  const header = req.headers.token;
  const query = req.query.token;
  const token = typeof header === 'string' ? header : typeof query === 'string' ? query : undefined;
  return token !== undefined && token.length > 0 && token.length <= MAX_TOKEN_LENGTH ? token : undefined;
}

const notFound = (req: Request) => new PipeworkError('NOT_FOUND', `No endpoint ${req.method} ${req.path}.`);

/** How a call opens its webhook: by token, or by uuid with a signature to check once the body is read. */
type Opened = { webhook: Webhook; signature?: string };

async function openWebhook(services: ServerServices, req: Request): Promise<Opened | undefined> {
  const token = tokenOf(req);
  if (token !== undefined) {
    const webhook = await services.webhooks.byToken(token);
    return webhook && { webhook };
  }
  const signature = signatureHeaderOf(req.headers);
  const uuid = req.query.uuid;
  if (signature === undefined || typeof uuid !== 'string' || uuid.length > MAX_TOKEN_LENGTH) return undefined;
  const webhook = await services.webhooks.get(uuid);
  return webhook?.secretName ? { webhook, signature } : undefined;
}

/** Whether the signed body is the webhook's: its creator's secret still there and the HMAC matching. */
async function signedByCreator(
  services: ServerServices,
  creator: Principal,
  webhook: Webhook,
  bytes: Buffer,
  signature: string,
): Promise<boolean> {
  try {
    // A mask of its own: the secret is used here, outside any run, and never reaches one.
    const material = await services.secrets.use(new SecretMask(), creator, webhook.secretName!);
    return material.format === 'secret-text' && verifyWebhookSignature(material.text, bytes, signature);
  } catch (error) {
    if (isPipeworkError(error)) return false; // the secret is gone, or no longer the creator's to use
    throw error;
  }
}

/** The request as the pipeline's body, in the webhook's payload type. */
function contentOf(req: Request, webhook: Webhook, bytes: Buffer): Record<string, unknown> {
  const contentType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  let payload: unknown = null;
  if (webhook.payloadType === 'base64') payload = bytes.toString('base64');
  else if (webhook.payloadType === 'raw' && bytes.length > 0) {
    const text = bytes.toString('utf8');
    if (contentType === 'application/json' || contentType.endsWith('+json')) {
      try {
        payload = JSON.parse(text) as unknown;
      } catch {
        throw new PipeworkError('BAD_REQUEST', 'The webhook body is not valid JSON.');
      }
    } else payload = text;
  }
  const query = Object.fromEntries(
    Object.entries(req.query).filter(([name]) => name !== 'token' && name !== 'uuid'),
  );
  return {
    eventKey: webhook.eventKey,
    webhook: webhook.uuid,
    contentType: contentType || null,
    contentLength: bytes.length,
    payloadType: webhook.payloadType,
    payload,
    query,
  };
}

export function webhookReceiveHandler(services: ServerServices): RequestHandler {
  // One counter per distinct limit (webhooks share few), each keyed by webhook: bounded, per instance.
  const counters = new Map<number, WindowCounter>();
  const withinRate = (webhook: Webhook) => {
    let counter = counters.get(webhook.ratePerMinute);
    if (!counter)
      counters.set(webhook.ratePerMinute, (counter = new WindowCounter(webhook.ratePerMinute, 60_000)));
    return counter.hit(webhook.uuid);
  };
  return async (req, res, next) => {
    try {
      if (req.method !== 'GET' && req.method !== 'POST') throw notFound(req);
      const opened = await openWebhook(services, req);
      if (!opened) throw notFound(req);
      const { webhook, signature } = opened;
      if (!withinRate(webhook)) {
        throw new PipeworkError(
          'TOO_MANY_REQUESTS',
          'This webhook was called too often; try again in a minute.',
        );
      }
      const bytes = req.method === 'GET' ? Buffer.alloc(0) : await readBody(req, webhook.maxPayloadLength);
      const creator = await services.iam.principalByUuid(webhook.createdBy);
      if (!creator) throw notFound(req); // its creator is gone: it opens nothing
      if (signature !== undefined && !(await signedByCreator(services, creator, webhook, bytes, signature))) {
        throw notFound(req);
      }
      const body = contentOf(req, webhook, bytes);
      const { code: property, runAs } = await readStoredCode(services, creator, webhook.pipeline, () =>
        services.properties.store.get(webhook.pipeline),
      );
      if (!property || !runAs || !services.properties.access.canRead(runAs, property.key)) {
        throw new PipeworkError('NOT_FOUND', `The webhook's pipeline '${webhook.pipeline}' does not exist.`);
      }
      const script = scriptWith(scriptOfProperty(property, 'pipeline'), { body });
      const options = {
        principal: runAs,
        trigger: { kind: 'webhook' as const, source: webhook.uuid },
        pipelineKey: property.key,
        traceId: res.locals.traceId as string | undefined,
      };
      if (req.query.wait === 'true') {
        sendResult(res, (await executePipeline(services, script, { ...options, topLevel: true })).body);
        return;
      }
      const { runId } = await startAsyncRun(services, script, options);
      sendAsyncStarted(res, runId);
    } catch (error) {
      if (!res.headersSent) req.resume();
      next(error);
    }
  };
}
