/**
 * The OpenID Connect endpoints a Keycloak client expects: token (password and refresh_token grants), certs
 * (JWKS), logout and discovery, under `/auth/realms/<realm>/...`. Errors use Keycloak's shape
 * `{error, error_description}`, not the API's, because OAuth clients parse them.
 */
import express, { Router, type Request, type Response } from 'express';
import {
  REALM_BASE,
  certsEndpoint,
  discoveryEndpoint,
  logoutEndpoint,
  tokenEndpoint,
  type OpenIdConfiguration,
} from '../../shared/api';
import { OAuthError } from '../auth/oauth-error';
import type { IamService } from '../iam';
import type { Logger } from '../logging/logger';

type Form = Record<string, unknown>;

function field(form: Form, name: string): string | undefined {
  const value = form[name];
  return typeof value === 'string' ? value : undefined;
}

/** A form-urlencoded part of `client_secret_basic` (RFC 6749 2.3.1); undefined when it is malformed. */
function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/**
 * `client_secret_basic`: client id and secret in a Basic header (the form fields win when both are given).
 * A Basic header that cannot be read is an `invalid_client`, never a server error.
 */
function clientFromHeader(req: Request): { clientId?: string; clientSecret?: string } {
  const header = req.headers.authorization;
  if (!header || !/^basic\s/i.test(header)) return {};
  const match = /^basic\s+([A-Za-z0-9+/]+={0,2})$/i.exec(header.trim());
  const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  const clientId = colon > 0 ? formDecode(decoded.slice(0, colon)) : undefined;
  const clientSecret = colon > 0 ? formDecode(decoded.slice(colon + 1)) : undefined;
  if (clientId === undefined || clientSecret === undefined) {
    throw new OAuthError('invalid_client', 'Invalid client or Invalid client credentials', 401);
  }
  return { clientId, clientSecret };
}

function sendOAuthError(res: Response, error: OAuthError): void {
  if (error.retryAfterSeconds) res.setHeader('Retry-After', String(error.retryAfterSeconds));
  res.status(error.status).json(error.toJSON());
}

/** Mounts the realm endpoints; `app.use(tokenRoutes(services.iam, services.logger))`. */
export function tokenRoutes(iam: IamService, logger?: Logger): Router {
  const router = Router();
  const base = REALM_BASE;
  const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50 });

  router.use(base, (req, res, next) => {
    if (req.params.realm !== iam.realm) {
      res.status(404).json({ error: 'Realm does not exist' });
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Pragma', 'no-cache');
    next();
  });

  router.post(tokenEndpoint.path, form, (req, res, next) => {
    const body: Form = (req.body as Form | undefined) ?? {};
    let client: { clientId?: string; clientSecret?: string };
    try {
      client = clientFromHeader(req);
    } catch (error) {
      sendOAuthError(res, error as OAuthError);
      return;
    }
    if (field(body, 'client_id')) client.clientId = field(body, 'client_id');
    if (field(body, 'client_secret')) client.clientSecret = field(body, 'client_secret');
    const grantType = field(body, 'grant_type');
    const scope = field(body, 'scope');
    let result;
    if (!grantType)
      result = Promise.reject(new OAuthError('invalid_request', 'Missing form parameter: grant_type'));
    else if (grantType === 'password') {
      const { username, password } = { username: field(body, 'username'), password: field(body, 'password') };
      result = iam.tokens.passwordGrant({
        ...client,
        username,
        password,
        scope,
        ip: req.socket.remoteAddress,
      });
    } else if (grantType === 'refresh_token') {
      result = iam.tokens.refreshGrant({ ...client, refreshToken: field(body, 'refresh_token'), scope });
    } else result = Promise.reject(new OAuthError('unsupported_grant_type', 'Unsupported grant_type'));
    result.then(
      (tokens) => res.json(tokens),
      (error: unknown) => {
        if (error instanceof OAuthError) {
          logger?.info({ grantType, error: error.error, status: error.status }, 'token request refused');
          sendOAuthError(res, error);
        } else next(error);
      },
    );
  });

  router.post(logoutEndpoint.path, form, (req, res, next) => {
    const token = field((req.body as Form | undefined) ?? {}, 'refresh_token');
    if (!token) {
      sendOAuthError(res, new OAuthError('invalid_request', 'Missing parameter: refresh_token'));
      return;
    }
    iam.tokens.logout(token).then(() => res.status(204).end(), next);
  });

  router.get(certsEndpoint.path, (_req, res, next) => {
    iam.jwks().then((keys) => res.json(keys), next);
  });

  router.get(discoveryEndpoint.path, (_req, res) => {
    // The issuer is the realm's own URL: each endpoint's path after the realm base follows it.
    const at = (endpoint: { path: string }) => `${iam.issuer}${endpoint.path.slice(base.length)}`;
    const configuration: OpenIdConfiguration = {
      issuer: iam.issuer,
      token_endpoint: at(tokenEndpoint),
      jwks_uri: at(certsEndpoint),
      end_session_endpoint: at(logoutEndpoint),
      grant_types_supported: ['password', 'refresh_token'],
      response_types_supported: ['token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
    };
    res.json(configuration);
  });

  // A body the form parser refused (too large, malformed) is an OAuth invalid_request here.
  router.use(base, (error: unknown, _req: Request, res: Response, next: (e?: unknown) => void) => {
    const status = (error as { status?: number } | null)?.status;
    if (status && status >= 400 && status < 500)
      sendOAuthError(res, new OAuthError('invalid_request', 'Invalid request body', status));
    else next(error);
  });
  return router;
}
