/** Requires credentials on the API: resolves the caller once per request into `res.locals.principal`. */
import type { RequestHandler } from 'express';
import type { Authenticator } from '../auth/authenticator';

export function authenticate(authenticator: Authenticator): RequestHandler {
  return (req, res, next) => {
    authenticator
      .authenticate({ authorization: req.headers.authorization, ip: req.socket.remoteAddress })
      .then((principal) => {
        res.locals.principal = principal;
        next();
      }, next);
  };
}
