/** `webhook.get`, `webhook.list`, `webhook.delete`: the caller's webhooks (an admin's: all). */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { manageableWebhook, mayManage, webhookView } from './webhook-access';

const uuidParameter = { uuid: { type: 'string' as const, description: 'The webhook’s uuid.' } };

export const webhookGet = defineCommand<ServerServices>(
  {
    name: 'webhook.get',
    summary: 'Returns one webhook (never its token).',
    parameters: uuidParameter,
    required: ['uuid'],
    defaultParameter: 'uuid',
    input: 'none',
    output: 'json',
    effect: 'read',
    audience: 'developer',
    examples: [{ title: 'One webhook', pipeline: 'pipeline:\n  - webhook.get: 7f1c...\n' }],
  },
  async (ctx) =>
    webhookView(ctx.services, await manageableWebhook(ctx.services, ctx.principal, String(ctx.params.uuid))),
);

export const webhookList = defineCommand<ServerServices>(
  {
    name: 'webhook.list',
    summary: 'Lists the webhooks the caller created (an admin: all), without tokens.',
    parameters: {},
    input: 'none',
    output: 'json',
    effect: 'read',
    audience: 'developer',
    examples: [{ title: 'All my webhooks', pipeline: 'pipeline:\n  - webhook.list\n' }],
  },
  async (ctx) =>
    (await ctx.services.webhooks.list())
      .filter((w) => mayManage(ctx.principal, w))
      .map((w) => webhookView(ctx.services, w)),
);

export const webhookDelete = defineCommand<ServerServices>(
  {
    name: 'webhook.delete',
    summary: 'Deletes a webhook: its URL answers 404 from then on.',
    parameters: uuidParameter,
    required: ['uuid'],
    defaultParameter: 'uuid',
    input: 'none',
    output: 'json',
    effect: 'write',
    audience: 'developer',
    examples: [{ title: 'Revoke a webhook', pipeline: 'pipeline:\n  - webhook.delete: 7f1c...\n' }],
  },
  async (ctx) => {
    const webhook = await manageableWebhook(ctx.services, ctx.principal, String(ctx.params.uuid));
    await ctx.services.webhooks.delete(webhook.uuid);
    return webhookView(ctx.services, webhook);
  },
);
