/** Webhooks: inbound URLs with an unguessable token that run a linked pipeline. */
export {
  WebhookStore,
  openWebhookStore,
  webhookTokenDigest,
  PAYLOAD_TYPES,
  DEFAULT_MAX_PAYLOAD,
  MAX_PAYLOAD,
  type PayloadType,
  type Webhook,
} from './webhook-store';
export {
  SIGNATURE_HEADERS,
  signatureHeaderOf,
  signWebhookBody,
  verifyWebhookSignature,
} from './webhook-signature';
