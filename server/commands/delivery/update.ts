/** `delivery.update`: changes a delivery (everything in DRAFT, only recipients once FINALIZED). */
import { defineCommand } from '../../../shared/commands';
import { deliveryView, privacyLevelOf } from '../../delivery';
import { booleanOf, deleteAfterOf, recipientsOf, textOf } from '../../delivery/delivery-input';
import type { ServerServices } from '../../services';
import { DELIVERY_FIELD_PARAMETERS, deliveryCreate } from './create';
import { DELIVERY_UUID, attachmentsOf, callerOf } from './delivery-command-support';

export const deliveryUpdate = defineCommand<ServerServices>(
  {
    name: 'delivery.update',
    effect: 'write',
    audience: 'developer',
    summary: 'Changes a delivery; what is given replaces what it had. Without deliveryUuid, creates one.',
    description:
      'Subject, message, privacy level, expiry and files change only in DRAFT (else CONFLICT); recipients always. ' +
      'Only the sender (or an admin) sees a delivery; any other uuid is NOT_FOUND.',
    parameters: { deliveryUuid: DELIVERY_UUID, ...DELIVERY_FIELD_PARAMETERS },
    input: 'any',
    output: 'json',
  },
  async (ctx) => {
    if (ctx.params.deliveryUuid === undefined || ctx.params.deliveryUuid === '')
      return deliveryCreate.run(ctx);
    const caller = callerOf(ctx);
    const delivery = await ctx.services.deliveries.update(caller, ctx.params.deliveryUuid, {
      subject: textOf(ctx.params.subject, 'subject'),
      message: textOf(ctx.params.message, 'message'),
      privacyLevel:
        ctx.params.privacyLevel === undefined ? undefined : privacyLevelOf(ctx.params.privacyLevel),
      recipients:
        ctx.params.recipients === undefined || ctx.params.recipients === ''
          ? undefined
          : recipientsOf(ctx.params.recipients, 'recipients'),
      deleteAfter: deleteAfterOf(ctx.params.deleteAfter),
      notifySender: booleanOf(ctx.params.notifySender, 'notifySender'),
      attachments: await attachmentsOf(ctx, ctx.params.attachments),
    });
    return deliveryView(delivery);
  },
);
