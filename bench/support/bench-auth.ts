/** An access token for the benchmark servers' admin, from the token endpoint, for the client `clientId`. */
import { BENCH_ADMIN_PASSWORD } from './bench-constants';

export async function accessToken(baseUrl: string, clientId = 'cli'): Promise<string> {
  const response = await fetch(`${baseUrl}/auth/realms/pipework/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: clientId,
      username: 'admin',
      password: BENCH_ADMIN_PASSWORD,
    }),
  });
  if (!response.ok) throw new Error(`token endpoint answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}
