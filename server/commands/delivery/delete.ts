/** `delivery.delete` and `delivery.outbox.delete`: a delivery and its files, gone; its links answer 404. */
import { defineCommand, type CommandContext } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { DELIVERY_UUID, callerOf } from './delivery-command-support';

const parameters = { deliveryUuid: DELIVERY_UUID };

async function remove(ctx: CommandContext<ServerServices>): Promise<{ deleted: unknown }> {
  await ctx.services.deliveries.delete(callerOf(ctx), ctx.params.deliveryUuid);
  return { deleted: ctx.params.deliveryUuid };
}

export const deliveryDelete = defineCommand<ServerServices>(
  {
    name: 'delivery.delete',
    effect: 'write',
    audience: 'developer',
    summary: 'Deletes a delivery you sent, with its files; its download links stop working.',
    parameters,
    required: ['deliveryUuid'],
    input: 'none',
    output: 'json',
  },
  (ctx) => remove(ctx),
);

export const deliveryOutboxDelete = defineCommand<ServerServices>(
  {
    name: 'delivery.outbox.delete',
    effect: 'write',
    audience: 'developer',
    summary: 'Deletes a delivery from your outbox (as delivery.delete).',
    parameters,
    required: ['deliveryUuid'],
    input: 'none',
    output: 'json',
  },
  (ctx) => remove(ctx),
);
