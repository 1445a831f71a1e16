/** Secure delivery settings: sizes, counts and the download page's request limits. */
import { positiveIntFrom } from '../config-env';

export interface DeliveryConfig {
  /** Bytes of all attachments of one delivery (`PIPEWORK_DELIVERY_MAX_BYTES`, 25 MiB). */
  maxBytes: number;
  /** Recipients of one delivery (`PIPEWORK_DELIVERY_MAX_RECIPIENTS`, 100). */
  maxRecipients: number;
  /** Requests to the download page per client address and minute (`PIPEWORK_DELIVERY_PAGE_RATE`, 60). */
  pageRequestsPerMinute: number;
  /** Wrong passwords for one link per 15 minutes before it answers 429 (`PIPEWORK_DELIVERY_PASSWORD_TRIES`, 5). */
  passwordTries: number;
}

export function loadDeliveryConfig(env: NodeJS.ProcessEnv): DeliveryConfig {
  return {
    maxBytes: positiveIntFrom(env, 'PIPEWORK_DELIVERY_MAX_BYTES', 25 * 1024 * 1024),
    maxRecipients: positiveIntFrom(env, 'PIPEWORK_DELIVERY_MAX_RECIPIENTS', 100),
    pageRequestsPerMinute: positiveIntFrom(env, 'PIPEWORK_DELIVERY_PAGE_RATE', 60),
    passwordTries: positiveIntFrom(env, 'PIPEWORK_DELIVERY_PASSWORD_TRIES', 5),
  };
}
