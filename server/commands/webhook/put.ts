/** `webhook.put`: creates a webhook (its token shown once) or, with `uuid`, changes one's settings. */
import { defineCommand, type CommandContext } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { normalizePropertyKey } from '../../../shared/property';
import type { ServerServices } from '../../services';
import { DEFAULT_MAX_PAYLOAD, MAX_PAYLOAD, PAYLOAD_TYPES, type PayloadType } from '../../webhooks';
import { manageableWebhook, webhookView } from './webhook-access';
import { runMaskOf } from '../../runs/run-scope';

/**
 * The signature secret's name: undefined when not given, null when given empty (token only). The caller must
 * be able to use it now, and it must be secret-text (calls use it later as the webhook's creator).
 */
async function signatureSecretOf(ctx: CommandContext<ServerServices>): Promise<string | null | undefined> {
  const name = ctx.params.secret;
  if (name === undefined || name === null) return undefined;
  if (name === '') return null;
  const material = await ctx.services.secrets.use(
    runMaskOf(ctx.services),
    ctx.principal!,
    String(name),
    'secret',
  );
  if (material.format !== 'secret-text') {
    throw new PipeworkError('PARAM_INVALID', `Secret '${String(name)}' must be a secret-text secret.`, {
      parameter: 'secret',
    });
  }
  return String(name);
}

export const webhookPut = defineCommand<ServerServices>(
  {
    name: 'webhook.put',
    summary: 'Creates a webhook that runs a stored pipeline when its URL is called, or changes one.',
    description:
      'The answer holds `webhookUrl` with the token, and `token`: shown this once, only its SHA-256 is stored. ' +
      'A call runs `pipeline` as the webhook’s creator (bound by the pipeline’s author) with the request as body. ' +
      'With `uuid`, changes that webhook’s settings; its token stays.',
    parameters: {
      eventKey: {
        type: 'string',
        minLength: 1,
        maxLength: 200,
        description: 'The webhook’s name, e.g. webhook.lead.created.',
      },
      pipeline: { type: 'string', description: 'The key of the stored pipeline a call runs.' },
      payloadType: {
        type: 'string',
        enum: [...PAYLOAD_TYPES],
        description: 'raw: the body as sent (JSON parsed); base64 (default): base64 text; ignore: no body.',
      },
      maxPayloadLength: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_PAYLOAD,
        description: `Bytes a call’s body may have; more is 413. Default ${DEFAULT_MAX_PAYLOAD}.`,
      },
      ratePerMinute: {
        type: 'integer',
        minimum: 1,
        maximum: 10_000,
        description: 'Calls per minute per instance; more are 429. Default 60.',
      },
      secret: {
        type: 'string',
        maxLength: 128,
        description:
          'Pipework: the name of one of your secret-text secrets; calls may then be signed with it instead of ' +
          'carrying the token (HMAC-SHA256 of the body in X-Pipework-Signature-256). Empty: token only.',
      },
      uuid: { type: 'string', description: 'An existing webhook to change.' },
    },
    required: ['eventKey', 'pipeline'],
    input: 'none',
    output: 'json',
    effect: 'write',
    audience: 'developer',
    examples: [
      {
        title: 'A webhook for new leads',
        pipeline:
          'pipeline:\n  - webhook.put:\n      eventKey: webhook.lead.created\n      pipeline: global/app/crm/pipeline/new-lead\n',
      },
    ],
  },
  async (ctx) => {
    const { services, principal, params } = ctx;
    const pipeline = normalizePropertyKey(params.pipeline);
    services.properties.access.assertRead(principal, pipeline);
    const secretName = await signatureSecretOf(ctx);
    const fields = {
      eventKey: String(params.eventKey),
      pipeline,
      payloadType: (params.payloadType as PayloadType | undefined) ?? 'base64',
      maxPayloadLength: (params.maxPayloadLength as number | undefined) ?? DEFAULT_MAX_PAYLOAD,
      ratePerMinute: (params.ratePerMinute as number | undefined) ?? 60,
    };
    if (typeof params.uuid === 'string') {
      const existing = await manageableWebhook(services, principal, params.uuid);
      const changed = { ...fields, secretName: secretName === undefined ? existing.secretName : secretName };
      return webhookView(services, (await services.webhooks.update(params.uuid, changed))!);
    }
    const created = await services.webhooks.create(
      { ...fields, secretName: secretName ?? null, createdBy: principal!.uuid },
      Date.now(),
    );
    return webhookView(services, created, created.token);
  },
);
