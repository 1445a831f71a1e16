/**
 * What an attack of the catalogue is (a request with the status and error code it must get) and the helpers the
 * attack files write them with. Ids are stable so that a failure names its attack.
 */

/** Who sends the request: nobody, the admin, two ordinary users in different groups and tenants, or a header. */
export type Caller = 'none' | 'admin' | 'ann' | 'ben' | { authorization: string };

export interface AttackWorld {
  annUuid: string;
  benUuid: string;
  salesUuid: string;
  opsUuid: string;
  globexUuid: string;
}

export interface HttpAttack {
  id: string;
  what: string;
  as: Caller;
  method?: string;
  path: string | ((w: AttackWorld) => string);
  type?: string;
  body?: string | ((w: AttackWorld) => string);
  headers?: Record<string, string>;
  status: number;
  /** The contract's `value.code` (API errors) or OAuth's `error` (token endpoint). */
  code?: string;
  /** Text the response must never contain (a value the caller may not see). */
  mustNotContain?: string;
}

/** A request written byte by byte, for shapes that no well-behaved client library would send. */
export interface RawAttack {
  id: string;
  what: string;
  raw: string;
  status: number;
}

export const cmd = (name: string, query = '') => `/api/v3/command/${name}${query ? `?${query}` : ''}`;
export const TOKEN = '/auth/realms/pipework/protocol/openid-connect/token';
export const FORM = 'application/x-www-form-urlencoded';
export const YAML = 'application/yaml';
const b64 = (s: string) => Buffer.from(s).toString('base64url');
export const jwt = (header: object, payload: object, signature = '') =>
  `${b64(JSON.stringify(header))}.${b64(JSON.stringify(payload))}.${signature}`;
export const FAR_FUTURE = {
  iss: 'http://127.0.0.1/auth/realms/pipework',
  aud: 'pipework',
  sub: 'admin',
  exp: 4_102_444_800,
};
const BEN_SECRET = 'ben-secret-value-7f3a';

export const SECRET_OF_BEN = BEN_SECRET;
export const USER_PASSWORD = 'ordinary-user-password';
export const annWith = (suffix: string) => ({
  authorization: `Basic ${btoa(`ann:${USER_PASSWORD}`)}${suffix}`,
});

export const pel = (expression: string) => `pipeline:\n  - set:\n      value: "${expression}"\n`;
