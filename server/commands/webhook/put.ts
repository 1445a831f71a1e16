/** `webhook.put`: creates a webhook (its token shown once) or, with `uuid`, changes one's settings. */
import { defineCommand } from '../../../shared/commands';
import { normalizePropertyKey } from '../../../shared/property';
import type { ServerServices } from '../../services';
import { DEFAULT_MAX_PAYLOAD, MAX_PAYLOAD, PAYLOAD_TYPES, type PayloadType } from '../../webhooks';
import { manageableWebhook, webhookView } from './webhook-access';

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
      uuid: { type: 'string', description: 'An existing webhook to change.' },
    },
    required: ['eventKey', 'pipeline'],
    input: 'none',
    output: 'json',
    effect: 'write',
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
    const fields = {
      eventKey: String(params.eventKey),
      pipeline,
      payloadType: (params.payloadType as PayloadType | undefined) ?? 'base64',
      maxPayloadLength: (params.maxPayloadLength as number | undefined) ?? DEFAULT_MAX_PAYLOAD,
      ratePerMinute: (params.ratePerMinute as number | undefined) ?? 60,
    };
    if (typeof params.uuid === 'string') {
      await manageableWebhook(services, principal, params.uuid);
      return webhookView(services, (await services.webhooks.update(params.uuid, fields))!);
    }
    const created = await services.webhooks.create({ ...fields, createdBy: principal!.uuid }, Date.now());
    return webhookView(services, created, created.token);
  },
);
