import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackListener, type LoopbackListener } from '../../http-client/loopback-listener';
import { callCommand, codeOf } from '../../testing/command-forms';
import { startTestServer, type TestServer } from '../../testing/test-server';

let closed: TestServer; // default configuration: nothing but public addresses
let allowing: TestServer; // 127.0.0.1 allowed, nothing else
let listener: LoopbackListener;
let other: LoopbackListener; // on 127.0.0.2, never allowed

beforeAll(async () => {
  [closed, allowing, listener, other] = await Promise.all([
    startTestServer(),
    startTestServer({ env: { PIPEWORK_HTTP_ALLOW_HOSTS: '127.0.0.1' } }),
    startLoopbackListener('127.0.0.1'),
    startLoopbackListener('127.0.0.2'),
  ]);
});
afterAll(async () => {
  await Promise.all([closed.close(), allowing.close(), listener.close(), other.close()]);
});

describe('http.* refuse non-public addresses in every spelling', () => {
  const spellings = () => {
    const port = listener.port;
    return [
      `http://127.0.0.1:${port}/json`,
      `http://127.1:${port}/json`,
      `http://2130706433:${port}/json`,
      `http://0x7f.0.0.1:${port}/json`,
      `http://0x7f000001:${port}/json`,
      `http://017700000001:${port}/json`,
      `http://0177.0.0.1:${port}/json`,
      `http://[::ffff:127.0.0.1]:${port}/json`,
      `http://[::ffff:7f00:1]:${port}/json`,
      `http://[::1]:${port}/json`,
      `http://[::]:${port}/json`,
      `http://0.0.0.0:${port}/json`,
      `http://0:${port}/json`,
      `http://localhost:${port}/json`,
      `https://localhost:${port}/json`,
      `http://169.254.169.254/latest/meta-data/`,
      `http://[fd00:ec2::254]/latest/meta-data/`,
      `http://10.0.0.1/`,
      `http://100.64.0.1/`,
      `http://192.168.1.1/`,
      `http://[fe80::1]/`,
      `http://[fd12::1]/`,
    ];
  };

  it.each(['GET', 'pipeline'] as const)(
    'refuses each with FORBIDDEN, %s form, and the listener sees no connection',
    async (form) => {
      for (const url of spellings()) {
        for (const name of ['http.get', 'http.post']) {
          const response = await callCommand(form, closed.url, name, { url }, closed.adminAuth);
          expect({ url, status: response.status, code: codeOf(response) }).toEqual({
            url,
            status: 403,
            code: 'FORBIDDEN',
          });
          expect(response.json.value.message).toContain('PIPEWORK_HTTP_ALLOW');
        }
      }
      expect(listener.connections()).toBe(0);
    },
  );

  it('refuses a name with a trailing dot (or finds no such name), and never connects', async () => {
    const url = `http://LOCALHOST.:${listener.port}/json`;
    const response = await callCommand('pipeline', closed.url, 'http.get', { url }, closed.adminAuth);
    expect(['FORBIDDEN', 'UPSTREAM_FAILED']).toContain(codeOf(response));
    if (codeOf(response) === 'UPSTREAM_FAILED') expect(response.json.value.message).toContain('ENOTFOUND');
    expect(listener.connections()).toBe(0);
  });

  it('refuses other schemes', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/', 'gopher://127.0.0.1:70/']) {
      const response = await callCommand('pipeline', closed.url, 'http.get', { url }, closed.adminAuth);
      expect(codeOf(response)).toBe('PARAM_INVALID');
    }
  });
});

describe('http.* with loopback allowed by configuration', () => {
  it('calls the allowed listener', async () => {
    const response = await callCommand(
      'GET',
      allowing.url,
      'http.get',
      { url: `${listener.url}/json` },
      allowing.adminAuth,
    );
    expect(response.json).toEqual({ hello: 'world' });
  });

  it('still refuses a loopback address that is not listed, and a redirect to one', async () => {
    const before = other.connections();
    const direct = await callCommand(
      'pipeline',
      allowing.url,
      'http.get',
      { url: `${other.url}/json` },
      allowing.adminAuth,
    );
    expect(codeOf(direct)).toBe('FORBIDDEN');
    for (const target of [
      `${other.url}/json`,
      `http://[::1]:${other.port}/json`,
      'http://169.254.169.254/',
    ]) {
      const redirect = `${listener.url}/redirect?to=${encodeURIComponent(target)}`;
      const response = await callCommand(
        'pipeline',
        allowing.url,
        'http.get',
        { url: redirect },
        allowing.adminAuth,
      );
      expect({ target, code: codeOf(response) }).toEqual({ target, code: 'FORBIDDEN' });
    }
    expect(other.connections()).toBe(before);
  });

  it("never forwards the caller's credentials, and drops the pipeline's on a redirect to another origin", async () => {
    const response = await callCommand(
      'pipeline',
      allowing.url,
      'http.get',
      { url: `${listener.url}/echo`, headers: { 'X-Trace': 'abc' } },
      allowing.adminAuth,
    );
    expect(response.json.headers['x-trace']).toBe('abc');
    expect(response.json.headers.authorization).toBeUndefined();
    expect(response.json.headers.cookie).toBeUndefined();
    const second = await startLoopbackListener('127.0.0.1');
    try {
      const redirect = `${listener.url}/redirect?to=${encodeURIComponent(`${second.url}/echo`)}`;
      const moved = await callCommand(
        'pipeline',
        allowing.url,
        'http.get',
        { url: redirect, headers: ['Authorization: Bearer secret', 'Cookie: s=1', 'X-Keep: yes'] },
        allowing.adminAuth,
      );
      expect(moved.json.headers['x-keep']).toBe('yes');
      expect(moved.json.headers.authorization).toBeUndefined();
      expect(moved.json.headers.cookie).toBeUndefined();
    } finally {
      await second.close();
    }
  });
});
