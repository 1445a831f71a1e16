/** `delivery.finalize`: fixes message and files; only recipients can be added afterwards. */
import { defineCommand } from '../../../shared/commands';
import { deliveryView } from '../../delivery';
import type { ServerServices } from '../../services';
import { DELIVERY_UUID, callerOf } from './delivery-command-support';

export const deliveryFinalize = defineCommand<ServerServices>(
  {
    name: 'delivery.finalize',
    effect: 'write',
    audience: 'developer',
    summary: 'Finalizes a delivery: its message and files can no longer change, recipients still can.',
    parameters: { deliveryUuid: DELIVERY_UUID },
    required: ['deliveryUuid'],
    input: 'none',
    output: 'json',
  },
  async (ctx) => deliveryView(await ctx.services.deliveries.finalize(callerOf(ctx), ctx.params.deliveryUuid)),
);
