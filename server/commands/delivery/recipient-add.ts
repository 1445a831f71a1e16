/** `delivery.recipient.add`: one more recipient (DRAFT or FINALIZED). */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { deliveryView } from '../../delivery';
import { recipientsOf } from '../../delivery/delivery-input';
import type { ServerServices } from '../../services';
import { DELIVERY_UUID, callerOf } from './delivery-command-support';

export const deliveryRecipientAdd = defineCommand<ServerServices>(
  {
    name: 'delivery.recipient.add',
    effect: 'write',
    audience: 'developer',
    summary: 'Adds a recipient to a delivery; delivery.send then mails it its link.',
    description:
      'A malformed address is PARAM_INVALID. An encrypted delivery (level 3, 4) already sent takes no new ' +
      'recipients (CONFLICT): its content key is kept only for those it was sent to.',
    parameters: {
      deliveryUuid: DELIVERY_UUID,
      email: { type: 'string', description: 'The address of the recipient.' },
      locale: { type: 'string', description: 'The language of the recipient (de, en, fr, ...).' },
    },
    required: ['deliveryUuid', 'email'],
    input: 'none',
    output: 'json',
  },
  async (ctx) => {
    const [email] = recipientsOf(ctx.params.email, 'email');
    const locale =
      typeof ctx.params.locale === 'string' && ctx.params.locale !== '' ? ctx.params.locale : null;
    if (locale !== null && !/^[A-Za-z]{2,8}([-_][A-Za-z0-9]{1,8})*$/.test(locale))
      throw new PipeworkError('PARAM_INVALID', `Locale '${locale.slice(0, 20)}' is not a language tag.`, {
        parameter: 'locale',
      });
    const delivery = await ctx.services.deliveries.addRecipient(
      callerOf(ctx),
      ctx.params.deliveryUuid,
      email!,
      locale,
    );
    return deliveryView(delivery);
  },
);
