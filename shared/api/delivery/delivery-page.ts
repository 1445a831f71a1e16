/**
 * The public download page of secure deliveries (docs/delivery.md): HTML, opened by the link's random token
 * alone. From privacy level 2 the page and each attachment are reached by posting the password mailed
 * separately (a form, `password=...`), so those are POSTs of the same paths.
 */
import { defineEndpoint, type None } from '../endpoint';

export interface DeliveryLink {
  token: string;
}

export interface DeliveryAttachment extends DeliveryLink {
  /** The attachment's position in the delivery (1-based). */
  position: number;
}

/** The page (HTML). */
export const openDelivery = defineEndpoint<DeliveryLink, None, None, string>({
  method: 'GET',
  path: '/delivery/:token',
  summary: 'the delivery page',
});

/** The page, with the password posted as a form. */
export const openDeliveryWithPassword = defineEndpoint<DeliveryLink, None, None, string>({
  method: 'POST',
  path: '/delivery/:token',
  summary: 'the delivery page with its password',
});

/** An attachment's bytes, in its own type. */
export const downloadDelivered = defineEndpoint<DeliveryAttachment, None, None, Uint8Array>({
  method: 'GET',
  path: '/delivery/:token/:position',
  summary: 'a delivered attachment',
});

export const downloadDeliveredWithPassword = defineEndpoint<DeliveryAttachment, None, None, Uint8Array>({
  method: 'POST',
  path: '/delivery/:token/:position',
  summary: 'a delivered attachment with its password',
});
