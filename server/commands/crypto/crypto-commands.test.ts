import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, type HttpResponse } from '../../testing/http-client';
import { startTestServer, type TestServer } from '../../testing/test-server';
import { codeOf } from '../../testing/command-forms';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    env: {
      PIPEWORK_KEY_VAULT: 'a-long-random-secret-for-tests-0123456789',
      PIPEWORK_KEY_OTHER: 'another-long-random-secret-9876543210',
    },
  });
});
afterAll(() => server.close());

const post = (command: string, query: string, body: string, type = 'text/plain') =>
  http(server.url, `/api/v3/command/${command}?${query}`, { auth: server.adminAuth, type, body });
const pipe = (yaml: string): Promise<HttpResponse> =>
  http(server.url, '/api/v3/pipeline', { auth: server.adminAuth, type: 'application/yaml', body: yaml });

describe('encrypt and decrypt', () => {
  it.each([
    ['a password', 'password=open%20sesame'],
    ['a server key', 'key=vault'],
    ['a server key named in capitals', 'key=VAULT'],
  ])('round-trips text over HTTP with %s', async (_what, query) => {
    const sealed = await post('encrypt', query, 'the secret text');
    expect(sealed.status).toBe(200);
    expect(sealed.text).toMatch(/^pwe1\./);
    expect(sealed.text).not.toContain('secret');
    const again = await post('encrypt', query, 'the secret text');
    expect(again.text).not.toBe(sealed.text); // a fresh salt and iv every time
    const opened = await post('decrypt', query, sealed.text);
    expect([opened.status, opened.text]).toEqual([200, 'the secret text']);
  });

  it('round-trips JSON and files as pipeline steps, keeping their kind', async () => {
    const json = await pipe(
      'pipeline:\n  - set.body: {value: {iban: DE02, n: [1, 2]}}\n  - encrypt: {key: vault}\n' +
        '  - set.var: {key: sealed, value: "#{body}"}\n  - decrypt: {key: vault}\n',
    );
    expect(json.json).toEqual({ iban: 'DE02', n: [1, 2] });
    const file = await fetch(`${server.url}/api/v3/pipeline`, {
      method: 'POST',
      headers: { authorization: server.adminAuth, 'content-type': 'application/yaml' },
      body: 'pipeline:\n  - pdf.create\n  - encrypt: pw\n  - decrypt: pw\n',
    });
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toContain('document.pdf');
    expect(new TextDecoder().decode((await file.arrayBuffer()).slice(0, 5))).toBe('%PDF-');
  });

  it('refuses a wrong password or key and any change to the input, never giving garbage', async () => {
    const sealed = (await post('encrypt', 'password=right', 'value')).text;
    const byKey = (await post('encrypt', 'key=vault', 'value')).text;
    const parts = sealed.split('.');
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    const changed = [
      parts.slice(0, 5).concat(flip(parts[5]!, 2)).join('.'), // ciphertext
      parts.slice(0, 4).concat(flip(parts[4]!, 3), parts[5]!).join('.'), // tag
      parts
        .slice(0, 3)
        .concat(flip(parts[3]!, 1), ...parts.slice(4))
        .join('.'), // iv
      parts
        .slice(0, 2)
        .concat(flip(parts[2]!, 1), ...parts.slice(3))
        .join('.'), // salt
    ];
    for (const input of changed) {
      const response = await post('decrypt', 'password=right', input);
      expect([response.status, codeOf(response)]).toEqual([400, 'BAD_REQUEST']);
    }
    const wrong = await post('decrypt', 'password=wrong', sealed);
    expect([codeOf(wrong), wrong.json.value.message]).toEqual([
      'BAD_REQUEST',
      'The input cannot be decrypted: the password or key is wrong, or the input was changed.',
    ]);
    for (const input of [
      sealed.slice(0, -10),
      sealed.slice(0, sealed.lastIndexOf('.')),
      'hello',
      'pwe1.scrypt-99.a.b.c.d',
    ]) {
      expect(codeOf(await post('decrypt', 'password=right', input))).toBe('BAD_REQUEST');
    }
    expect(codeOf(await post('decrypt', 'key=vault', sealed))).toBe('PARAM_INVALID');
    expect(codeOf(await post('decrypt', 'password=right', byKey))).toBe('PARAM_INVALID');
    // relabelled to another configured key, it fails authentication
    const relabelled = byKey.replace('key-vault', 'key-other');
    expect(codeOf(await post('decrypt', 'key=other', relabelled))).toBe('BAD_REQUEST');
  });

  it.each([
    ['neither password nor key', ''],
    ['both', 'password=x&key=vault'],
    ['an unknown server key', 'key=nope'],
    ['an empty password', 'password='],
  ])('refuses %s with PARAM_INVALID', async (_what, query) => {
    expect(codeOf(await post('encrypt', query, 'value'))).toBe('PARAM_INVALID');
  });

  it('refuses a body that is no sealed text', async () => {
    const response = await post('decrypt', 'password=x', '{"a": 1}', 'application/json');
    expect(codeOf(response)).toBe('BAD_REQUEST');
  });
});
