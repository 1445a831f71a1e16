/** Shared steps of the workbench e2e specs: sign in through the page, and API calls with a Bearer token. */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_ADMIN_PASSWORD } from '../../playwright.config';

/** Signs in on the sign-in page (opening `/` first when the page is blank) and waits for the workbench. */
export async function signIn(page: Page, username = 'admin', password = E2E_ADMIN_PASSWORD): Promise<void> {
  if (page.url() === 'about:blank') await page.goto('/');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // The workbench is a lazy chunk: on a busy machine it may take a while to arrive.
  await expect(page.getByTestId('signed-in-user')).toHaveText(new RegExp(`^${username}`), {
    timeout: 30_000,
  });
}

/** An access token from the token endpoint (password grant of the workbench client). */
export async function accessTokenFor(
  request: APIRequestContext,
  username = 'admin',
  password = E2E_ADMIN_PASSWORD,
): Promise<string> {
  const response = await request.post('/auth/realms/pipework/protocol/openid-connect/token', {
    form: { grant_type: 'password', client_id: 'workbench', username, password },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

/**
 * Runs one command through the API as `token`; returns the parsed JSON answer. `text` is sent as the command's
 * input (e.g. a property's value, stored as written, #{...} included); the parameters then go in the query.
 */
export async function callCommand<T = unknown>(
  request: APIRequestContext,
  token: string,
  name: string,
  params: Record<string, string | number>,
  text?: string,
): Promise<T> {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) values[key] = String(value);
  const headers = { authorization: `Bearer ${token}` };
  const response =
    text === undefined
      ? await request.post(`/api/v3/command/${name}`, { headers, form: values })
      : await request.post(`/api/v3/command/${name}?${new URLSearchParams(values)}`, {
          headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' },
          data: text,
        });
  expect(response.ok(), `${name}: ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}
