/**
 * Security headers on every answer. The API's answers (and anything that is not the workbench) are never
 * documents that may run script: `Content-Security-Policy: sandbox` gives a page opened from them an opaque
 * origin without scripts, so stored or reflected HTML, SVG or XML cannot act as our origin. The workbench gets
 * a policy its built React and Monaco code runs under: scripts only from our origin, inline styles (Monaco sets
 * them), workers from our origin, no framing by anyone.
 */
import type { RequestHandler } from 'express';

/** For the API, the token endpoints and errors: a sandboxed document that loads nothing. */
export const API_CSP =
  "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'";

/** For the workbench (dist/web). */
export const WORKBENCH_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  // The run view previews a PDF result from a blob: URL in a frame.
  "frame-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Paths that never serve the workbench. */
const NOT_WORKBENCH = /^\/(?:api|auth)(?:\/|$)|^\/(?:healthz|readyz)$/;

export function securityHeaders(): RequestHandler {
  return (req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Content-Security-Policy', NOT_WORKBENCH.test(req.path) ? API_CSP : WORKBENCH_CSP);
    next();
  };
}
