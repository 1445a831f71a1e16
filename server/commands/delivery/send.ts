/** `delivery.send`: mails the recipients their links (finalizing a draft first). */
import { defineCommand } from '../../../shared/commands';
import { deliveryView } from '../../delivery';
import { recipientsOf } from '../../delivery/delivery-input';
import type { ServerServices } from '../../services';
import { DELIVERY_UUID, RECIPIENTS, callerOf } from './delivery-command-support';

export const deliverySend = defineCommand<ServerServices>(
  {
    name: 'delivery.send',
    effect: 'write',
    audience: 'developer',
    summary: 'Sends a delivery: each recipient (or those given) gets a mail with its own download link.',
    description:
      'Through mail.send’s transport (SMTP, else the outbox). From privacy level 2 a second mail carries the ' +
      'password; from level 3 the files are encrypted at the first send, and the delivery cannot be sent ' +
      'again (CONFLICT). Sending again to a recipient replaces its link. Recipients given must already be ' +
      'recipients of the delivery (PARAM_INVALID).',
    parameters: { deliveryUuid: DELIVERY_UUID, recipients: RECIPIENTS },
    required: ['deliveryUuid'],
    input: 'none',
    output: 'json',
  },
  async (ctx) => {
    const only =
      ctx.params.recipients === undefined || ctx.params.recipients === ''
        ? undefined
        : recipientsOf(ctx.params.recipients, 'recipients');
    return deliveryView(await ctx.services.deliveries.send(callerOf(ctx), ctx.params.deliveryUuid, only));
  },
);
