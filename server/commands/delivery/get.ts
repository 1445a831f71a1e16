/** `delivery.get` and `delivery.outbox.details`: a delivery as its sender sees it. */
import { defineCommand } from '../../../shared/commands';
import { deliveryView } from '../../delivery';
import type { ServerServices } from '../../services';
import { DELIVERY_UUID, callerOf } from './delivery-command-support';

const parameters = { deliveryUuid: DELIVERY_UUID };

export const deliveryGet = defineCommand<ServerServices>(
  {
    name: 'delivery.get',
    effect: 'read',
    audience: 'developer',
    summary:
      'Returns a delivery you sent: subject, message, state, recipients with their download counts, files.',
    description: 'Only the sender (or an admin) sees a delivery; any other uuid is NOT_FOUND.',
    parameters,
    required: ['deliveryUuid'],
    input: 'none',
    output: 'json',
  },
  async (ctx) => deliveryView(await ctx.services.deliveries.owned(callerOf(ctx), ctx.params.deliveryUuid)),
);

export const deliveryOutboxDetails = defineCommand<ServerServices>(
  {
    name: 'delivery.outbox.details',
    effect: 'read',
    audience: 'developer',
    summary: 'Returns the details of a delivery of your outbox (as delivery.get).',
    parameters,
    required: ['deliveryUuid'],
    input: 'none',
    output: 'json',
  },
  async (ctx) => deliveryView(await ctx.services.deliveries.owned(callerOf(ctx), ctx.params.deliveryUuid)),
);
