/**
 * The real product's secret formats and what each means when a command uses it: `bearer` (a token for an
 * `Authorization: Bearer` header), `header` (`Name: value`), `username-password` (`user:password`) and
 * `secret-text` (any text). A value of the wrong shape is refused when it is stored, not when it is used.
 */
import { PipeworkError } from '../../shared/errors';

export const SECRET_FORMATS = ['secret-text', 'bearer', 'header', 'username-password'] as const;
export type SecretFormat = (typeof SECRET_FORMATS)[number];

export const MAX_SECRET_CHARS = 16_384;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
/** Headers a `header` secret may not set: they belong to the connection or to the request's framing. */
const FORBIDDEN_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'content-type',
]);

/** What a secret gives the command that uses it. */
export type SecretMaterial =
  | { format: 'secret-text'; text: string }
  | { format: 'bearer'; token: string }
  | { format: 'header'; name: string; value: string }
  | { format: 'username-password'; username: string; password: string };

const invalid = (message: string): PipeworkError =>
  new PipeworkError('PARAM_INVALID', message, { parameter: 'secret' });

export function isSecretFormat(format: unknown): format is SecretFormat {
  return typeof format === 'string' && (SECRET_FORMATS as readonly string[]).includes(format);
}

/** Parses a value in its format; the error never repeats the value. */
export function parseSecret(format: SecretFormat, secret: string): SecretMaterial {
  if (secret.length === 0 || secret.length > MAX_SECRET_CHARS)
    throw invalid(`A secret must have 1 to ${MAX_SECRET_CHARS} characters.`);
  if (format === 'secret-text') return { format, text: secret };
  if (/[\r\n\0]/.test(secret)) throw invalid(`A ${format} secret may not hold line breaks or NUL.`);
  switch (format) {
    case 'bearer': {
      // `Bearer: <token>` as the guide writes it, `Bearer <token>` as the command's description does, or the token.
      const token = secret.replace(/^Bearer:?\s+/i, '').trim();
      if (!/^[\x21-\x7e]+$/.test(token))
        throw invalid(
          'A bearer secret is "Bearer: <token>" with a token of visible ASCII characters and no spaces.',
        );
      return { format, token };
    }
    case 'header': {
      const colon = secret.indexOf(':');
      const name = colon > 0 ? secret.slice(0, colon).trim() : '';
      const value = colon > 0 ? secret.slice(colon + 1).trim() : '';
      if (!HEADER_NAME.test(name) || value.length === 0)
        throw invalid(
          'A header secret is "<HeaderName>: <HeaderValue>" with a valid header name and a value.',
        );
      if (FORBIDDEN_HEADERS.has(name.toLowerCase()))
        throw invalid(`A header secret may not set the ${name.toLowerCase()} header.`);
      return { format, name, value };
    }
    case 'username-password': {
      const colon = secret.indexOf(':');
      if (colon <= 0 || colon === secret.length - 1)
        throw invalid('A username-password secret is "<username>:<password>", both not empty.');
      return { format, username: secret.slice(0, colon), password: secret.slice(colon + 1) };
    }
  }
}

/** The texts of a secret that must never be shown: the whole value and its confidential parts. */
export function confidentialParts(material: SecretMaterial): string[] {
  switch (material.format) {
    case 'secret-text':
      return [material.text];
    case 'bearer':
      return [material.token];
    case 'header':
      return [material.value];
    case 'username-password':
      return [material.password, `${material.username}:${material.password}`];
  }
}
