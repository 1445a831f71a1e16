/** The secret.* commands as the Secrets view calls them; a value is sent in a POST body, never in a URL. */
import type { ApiClient } from '../api';

export const SECRET_FORMATS = ['bearer', 'header', 'username-password', 'secret-text'] as const;
export type SecretFormat = (typeof SECRET_FORMATS)[number];

/** What the server shows of a secret: never its value. */
export interface SecretInfo {
  name: string;
  format: SecretFormat;
  scope: 'user' | 'group' | 'tenant' | 'installation';
  scopeName?: string;
  createdBy: string;
  created: number;
  updated: number;
  expires: number | null;
}

/** The pattern each format's value follows, shown as the input's placeholder. */
export const FORMAT_HINTS: Record<SecretFormat, string> = {
  bearer: 'Bearer: <token>',
  header: '<HeaderName>: <HeaderValue>',
  'username-password': '<username>:<password>',
  'secret-text': 'any text',
};

export const listSecrets = (api: ApiClient) => api.command<SecretInfo[]>('secret.list');

export function putSecret(
  api: ApiClient,
  input: { name: string; format: SecretFormat; secret: string; scope?: string },
): Promise<SecretInfo> {
  return api.command<SecretInfo>('secret.put', input, { method: 'POST' });
}

export function deleteSecret(api: ApiClient, secret: Pick<SecretInfo, 'name' | 'scope' | 'scopeName'>) {
  const { name, scope, scopeName } = secret;
  return api.command(
    'secret.delete',
    { name, scope, ...(scopeName ? { scopeName } : {}) },
    { method: 'POST' },
  );
}
