/** `delivery.outbox.list`, `delivery.inbox.list`, `delivery.inbox.details`: your deliveries, both ways. */
import { defineCommand } from '../../../shared/commands';
import { type Delivery, deliveryView } from '../../delivery';
import type { ServerServices } from '../../services';
import { DELIVERY_UUID, callerOf } from './delivery-command-support';
import { PipeworkError } from '../../../shared/errors';

/** What a recipient sees of a delivery sent to it: no other recipient, no link, no secret. */
function inboxView(delivery: Delivery, email: string): Record<string, unknown> {
  const own = delivery.recipients.find((r) => r.email === email);
  return {
    uuid: delivery.uuid,
    subject: delivery.subject,
    message: delivery.encrypted && delivery.privacyLevel === 4 ? null : delivery.message,
    privacyLevel: delivery.privacyLevel,
    privacyLevelName: delivery.privacyLevelName,
    sender: { username: delivery.senderName, email: delivery.senderEmail },
    created: delivery.created,
    deleteAfter: delivery.deleteAfter,
    attachments: delivery.attachments,
    sent: own?.sent ?? null,
    downloads: own?.downloads ?? 0,
  };
}

export const deliveryOutboxList = defineCommand<ServerServices>(
  {
    name: 'delivery.outbox.list',
    effect: 'read',
    audience: 'developer',
    summary: 'Lists the deliveries you created, newest first.',
    parameters: {},
    input: 'none',
    output: 'json',
  },
  async (ctx) => (await ctx.services.deliveries.outbox(callerOf(ctx))).map(deliveryView),
);

export const deliveryInboxList = defineCommand<ServerServices>(
  {
    name: 'delivery.inbox.list',
    effect: 'read',
    audience: 'developer',
    summary: 'Lists the deliveries sent to your mail address, newest first.',
    parameters: {},
    input: 'none',
    output: 'json',
  },
  async (ctx) => {
    const caller = callerOf(ctx);
    const email = caller.email?.toLowerCase() ?? '';
    return (await ctx.services.deliveries.inbox(caller)).map((d) => inboxView(d, email));
  },
);

export const deliveryInboxDetails = defineCommand<ServerServices>(
  {
    name: 'delivery.inbox.details',
    effect: 'read',
    audience: 'developer',
    summary: 'Returns a delivery sent to your address (admins: to recipientEmail).',
    parameters: {
      deliveryUuid: DELIVERY_UUID,
      recipientEmail: { type: 'string', description: 'The recipient; your own address by default.' },
    },
    required: ['deliveryUuid'],
    input: 'none',
    output: 'json',
  },
  async (ctx) => {
    const caller = callerOf(ctx);
    const asked = typeof ctx.params.recipientEmail === 'string' && ctx.params.recipientEmail !== '';
    const email = asked ? String(ctx.params.recipientEmail) : undefined;
    const address = ctx.services.deliveries.inboxAddress(caller, email);
    const found = (await ctx.services.deliveries.inbox(caller, email)).find(
      (d) => d.uuid === ctx.params.deliveryUuid,
    );
    if (!found || !address) throw new PipeworkError('NOT_FOUND', 'No such delivery.');
    return inboxView(found, address);
  },
);
