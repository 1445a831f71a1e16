/** Who may see and change a webhook: whoever created it, and admins; the shape commands answer with. */
import { receiveWebhook } from '../../../shared/api';
import { isAdmin, type Principal } from '../../../shared/auth';
import { PipeworkError } from '../../../shared/errors';
import type { ServerServices } from '../../services';
import type { Webhook } from '../../webhooks';

export function mayManage(principal: Principal | null, webhook: Webhook): boolean {
  return principal !== null && (principal.uuid === webhook.createdBy || isAdmin(principal));
}

/** The webhook, or NOT_FOUND when it does not exist or the caller may not see it (the same answer). */
export async function manageableWebhook(
  services: ServerServices,
  principal: Principal | null,
  uuid: string,
): Promise<Webhook> {
  const webhook = await services.webhooks.get(uuid);
  if (!webhook || !mayManage(principal, webhook)) {
    throw new PipeworkError('NOT_FOUND', `No webhook '${uuid}'.`, { uuid });
  }
  return webhook;
}

/** The webhook's receive URL, with the token when there is one to show (only on creation). */
export function webhookUrl(services: ServerServices, token = '<token>'): string {
  const base = services.config.publicUrl ?? `http://${services.config.host}:${services.config.port}`;
  return `${base}${receiveWebhook.path}?token=${token}`;
}

/** A webhook as commands answer it (the token only when just created). */
export function webhookView(services: ServerServices, webhook: Webhook, token?: string) {
  return {
    uuid: webhook.uuid,
    eventKey: webhook.eventKey,
    pipeline: webhook.pipeline,
    payloadType: webhook.payloadType,
    maxPayloadLength: webhook.maxPayloadLength,
    ratePerMinute: webhook.ratePerMinute,
    secret: webhook.secretName,
    created: webhook.created,
    webhookUrl: webhookUrl(services, token),
    ...(token === undefined ? {} : { token }),
  };
}
