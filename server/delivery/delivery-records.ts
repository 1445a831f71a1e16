/** What a delivery is, as the commands show it, and the privacy levels of the real product. */
import { PipeworkError } from '../../shared/errors';

/** DRAFT: everything can change; FINALIZED (by delivery.finalize or the first send): only recipients. */
export type DeliveryStatus = 'DRAFT' | 'FINALIZED';

/** The privacy levels by number (delivery.*) and by name (property.send.delivery). */
export const PRIVACY_LEVELS = ['L01_URL_ONLY', 'L02_CREDENTIALS', 'L03_ENCRYPT', 'L04_ENCRYPT_ALL'] as const;
export type PrivacyLevel = 1 | 2 | 3 | 4;

/** 1..4, `L01_URL_ONLY`..`L04_ENCRYPT_ALL`, or absent (the default). */
export function privacyLevelOf(value: unknown, fallback: PrivacyLevel = 1): PrivacyLevel {
  if (value === undefined || value === null || value === '') return fallback;
  const text = String(value).trim().toUpperCase();
  const byName = PRIVACY_LEVELS.indexOf(text as (typeof PRIVACY_LEVELS)[number]);
  if (byName >= 0) return (byName + 1) as PrivacyLevel;
  if (/^[1-4]$/.test(text)) return Number(text) as PrivacyLevel;
  throw new PipeworkError(
    'PARAM_INVALID',
    `Privacy level '${String(value).slice(0, 40)}' is not one of 1, 2, 3, 4 or ${PRIVACY_LEVELS.join(', ')}.`,
    { parameter: 'privacyLevel' },
  );
}

export interface DeliveryRecipient {
  email: string;
  locale: string | null;
  /** When the link went out (epoch millis), or null. */
  sent: number | null;
  downloads: number;
  lastDownload: number | null;
}

export interface DeliveryAttachmentInfo {
  /** 0, 1, 2 ... in the order they were added; the download page's attachment number. */
  position: number;
  name: string;
  mimeType: string;
  length: number;
}

export interface Delivery {
  uuid: string;
  senderUuid: string;
  senderName: string;
  senderEmail: string | null;
  subject: string;
  message: string;
  privacyLevel: PrivacyLevel;
  privacyLevelName: (typeof PRIVACY_LEVELS)[number];
  status: DeliveryStatus;
  notifySender: boolean;
  /** Epoch millis after which the delivery and its bytes are deleted; 0 for never. */
  deleteAfter: number;
  /** From level 3 once sent: the attachments (level 4: and the message) are stored encrypted. */
  encrypted: boolean;
  created: number;
  updated: number;
  recipients: DeliveryRecipient[];
  attachments: DeliveryAttachmentInfo[];
}

/** A delivery as its sender and admins see it (no hashes, no keys, no bytes). */
export function deliveryView(delivery: Delivery): Record<string, unknown> {
  return {
    uuid: delivery.uuid,
    subject: delivery.subject,
    message: delivery.encrypted && delivery.privacyLevel === 4 ? null : delivery.message,
    privacyLevel: delivery.privacyLevel,
    privacyLevelName: delivery.privacyLevelName,
    status: delivery.status,
    notifySender: delivery.notifySender,
    deleteAfter: delivery.deleteAfter,
    encrypted: delivery.encrypted,
    sender: { username: delivery.senderName, email: delivery.senderEmail },
    created: delivery.created,
    updated: delivery.updated,
    recipients: delivery.recipients,
    attachments: delivery.attachments,
    downloads: delivery.recipients.reduce((sum, r) => sum + r.downloads, 0),
  };
}
