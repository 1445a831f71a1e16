/**
 * The public inbound URL of webhooks (docs/webhooks.md): `POST` (or `GET`, without a body) with the token as
 * `token` query parameter or header, or with the webhook's `uuid` and the body signed with its secret. The body
 * is read raw, in whatever type the sender uses; other query parameters reach the pipeline as `query`.
 */
import { defineEndpoint, type None } from '../endpoint';

/** The query names the route itself reads; any other is handed to the pipeline. */
export interface ReceiveWebhookQuery {
  token?: string;
  uuid?: string;
  /** `true`: answer the pipeline's result instead of 202 with the run id. */
  wait?: 'true';
}

export const receiveWebhook = defineEndpoint<None, ReceiveWebhookQuery, None, unknown>({
  method: 'POST',
  path: '/api/v3/command/webhook.receive',
  aliases: ['/api/v3/command:webhook.receive', '/api/v3/webhook/receive'],
  summary: 'a webhook call',
});
