/**
 * The public download page of secure deliveries: `/delivery/<token>` (the page), `/delivery/<token>/<n>` (an
 * attachment). No credentials but the link's random token (and from privacy level 2 the password mailed
 * separately); an unknown, malformed or expired token answers the same 404 page, nothing disclosed; there is
 * no listing. Requests per client address and wrong passwords per link are limited (429).
 */
import express, { type Request, type Response, Router } from 'express';
import {
  downloadDelivered,
  downloadDeliveredWithPassword,
  openDelivery,
  openDeliveryWithPassword,
  endpointUrl,
} from '../../shared/api';
import type { OpenedLink } from '../delivery';
import type { ServerServices } from '../services';
import { WindowCounter } from './delivery-rate-limit';
import { deliveryPage, notFoundPage, passwordPage, tooManyPage } from './delivery-page-html';

/** The page's own address, where its forms post. */
const pageOf = (token: string) => endpointUrl(openDelivery, { token });

function secureHeaders(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer'); // the token is in the address
  res.setHeader('X-Robots-Tag', 'noindex, nofollow');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader(
    'Content-Security-Policy',
    "default-src 'none'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  );
}

function html(res: Response, status: number, body: string): void {
  res.status(status).type('html').send(body);
}

/** `filename*` for any name, and a plain ASCII fallback. */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function deliveryPageRoutes(services: ServerServices): Router {
  const { deliveries } = services;
  const perClient = new WindowCounter(deliveries.config.pageRequestsPerMinute, 60_000);
  const wrongPasswords = new WindowCounter(deliveries.config.passwordTries, 15 * 60_000);
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 4 });

  /** The link of the request, or the answer already sent (404 / 429). */
  async function opened(req: Request, res: Response): Promise<OpenedLink | undefined> {
    secureHeaders(res);
    if (!perClient.hit(req.socket.remoteAddress ?? '')) {
      res.setHeader('Retry-After', '60');
      html(res, 429, tooManyPage());
      return undefined;
    }
    const link = await deliveries.openLink(String(req.params.token));
    if (!link) html(res, 404, notFoundPage());
    return link;
  }

  /** The password of a level 2+ form post, checked; undefined when the answer was sent. */
  function password(req: Request, res: Response, link: OpenedLink): string | undefined {
    const token = String(req.params.token);
    if (wrongPasswords.blocked(token)) {
      res.setHeader('Retry-After', '900');
      html(res, 429, tooManyPage());
      return undefined;
    }
    const given = typeof req.body?.password === 'string' ? (req.body.password as string) : '';
    if (deliveries.passwordMatches(link, given)) return given;
    wrongPasswords.hit(token);
    html(res, 403, passwordPage(link.delivery, pageOf(token), true));
    return undefined;
  }

  async function sendAttachment(req: Request, res: Response, link: OpenedLink, pass: string): Promise<void> {
    const position = Number(req.params.position);
    const info = link.delivery.attachments.find((a) => a.position === position);
    if (!info) return html(res, 404, notFoundPage());
    const bytes = await deliveries.download(link, position, String(req.params.token), pass);
    res.status(200);
    res.setHeader('Content-Type', info.mimeType);
    res.setHeader('Content-Disposition', contentDisposition(info.name));
    res.setHeader('Content-Length', String(bytes.byteLength));
    res.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }

  router.get(openDelivery.path, async (req, res, next) => {
    try {
      const link = await opened(req, res);
      if (!link) return;
      const path = pageOf(String(req.params.token));
      if (link.delivery.privacyLevel >= 2) return html(res, 200, passwordPage(link.delivery, path, false));
      html(res, 200, deliveryPage(link.delivery, path, link.delivery.message, null));
    } catch (error) {
      next(error);
    }
  });

  router.post(openDeliveryWithPassword.path, form, async (req, res, next) => {
    try {
      const link = await opened(req, res);
      if (!link) return;
      const token = String(req.params.token);
      const path = pageOf(token);
      if (link.delivery.privacyLevel < 2)
        return html(res, 200, deliveryPage(link.delivery, path, link.delivery.message, null));
      const pass = password(req, res, link);
      if (pass === undefined) return;
      const message = deliveries.messageFor(link, token, pass);
      html(res, 200, deliveryPage(link.delivery, path, message, pass));
    } catch (error) {
      next(error);
    }
  });

  router.get(downloadDelivered.path, async (req, res, next) => {
    try {
      const link = await opened(req, res);
      if (!link) return;
      const path = pageOf(String(req.params.token));
      if (link.delivery.privacyLevel >= 2) return html(res, 403, passwordPage(link.delivery, path, false));
      await sendAttachment(req, res, link, '');
    } catch (error) {
      next(error);
    }
  });

  router.post(downloadDeliveredWithPassword.path, form, async (req, res, next) => {
    try {
      const link = await opened(req, res);
      if (!link) return;
      let pass = '';
      if (link.delivery.privacyLevel >= 2) {
        const checked = password(req, res, link);
        if (checked === undefined) return;
        pass = checked;
      }
      await sendAttachment(req, res, link, pass);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
