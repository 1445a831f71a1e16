/**
 * Finding 3 of issue 18: what users stored or typed cannot run as our origin. Stored HTML, SVG and XML, a
 * reflected body, attachments and drive files are answered under `Content-Security-Policy: sandbox` (an opaque
 * origin without scripts) with `nosniff`; downloads also as attachments. The workbench has its own policy.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, type HttpResponse } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

const SCRIPT_PAGE = '<html><body><script>document.title = "pwned"</script><h1>stored page</h1></body></html>';
const SCRIPT_SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
const b64 = (text: string) => Buffer.from(text).toString('base64');

let server: TestServer;
let webDist: string;
beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), 'pipework-web-'));
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
  server = await startTestServer({ webDist });
  const put = (key: string, value: string, type: string) =>
    http(server.url, `/api/v3/command/property.schema.put?key=${key}&type=${encodeURIComponent(type)}`, {
      method: 'POST',
      auth: server.adminAuth,
    }).then(() =>
      http(server.url, `/api/v3/command/property.put?key=${key}`, {
        auth: server.adminAuth,
        type: 'text/plain',
        body: value,
      }),
    );
  await put('global/web/page', b64(SCRIPT_PAGE), 'text/html;encoding=base64');
  await put('global/web/image', b64(SCRIPT_SVG), 'image/svg+xml;encoding=base64');
});
afterAll(async () => {
  await server.close();
  rmSync(webDist, { recursive: true, force: true });
});

/** A sandbox without `allow-scripts` and without `allow-same-origin`, plus nosniff and no framing. */
function expectInert(response: HttpResponse): void {
  const csp = response.headers.get('content-security-policy') ?? '';
  expect(csp).toMatch(/(^|;)\s*sandbox\s*(;|$)/);
  expect(csp).not.toContain('allow-scripts');
  expect(csp).not.toContain('allow-same-origin');
  expect(csp).toContain("frame-ancestors 'none'");
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('referrer-policy')).toBe('no-referrer');
}

describe('stored and reflected active content', () => {
  it('S01 property.value.get of text/html answers under a script-free sandbox', async () => {
    const response = await http(server.url, '/api/v3/command/property.value.get?key=global/web/page', {
      auth: server.adminAuth,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.text).toBe(SCRIPT_PAGE);
    expectInert(response);
  });

  it('S02 property.value.get of image/svg+xml answers under the same sandbox', async () => {
    const response = await http(server.url, '/api/v3/command/property.value.get?key=global/web/image', {
      auth: server.adminAuth,
    });
    expect(response.headers.get('content-type')).toContain('image/svg+xml');
    expectInert(response);
  });

  it('S03 a pipeline whose body is stored HTML (set.body of it) answers under the sandbox', async () => {
    const response = await http(server.url, '/api/v3/pipeline', {
      auth: server.adminAuth,
      type: 'application/yaml',
      body: 'pipeline:\n  - property.value.get: global/web/page\n  - set.body: "#{body}"\n',
    });
    expect(response.headers.get('content-type')).toContain('text/html');
    expectInert(response);
  });

  it('S04 a reflected value (GET set.body?value=<script>) is text under the sandbox', async () => {
    const response = await http(
      server.url,
      `/api/v3/command/set.body?value=${encodeURIComponent(SCRIPT_PAGE)}`,
      { auth: server.adminAuth },
    );
    expect(response.headers.get('content-type')).toContain('text/plain');
    expectInert(response);
  });

  it('S05 an attachment download is an attachment under the sandbox', async () => {
    await http(server.url, '/api/v3/command/property.attachment.put?key=global/web/page&name=x.html', {
      auth: server.adminAuth,
      type: 'text/html',
      body: SCRIPT_PAGE,
    });
    const response = await http(
      server.url,
      '/api/v3/command/property.attachment.content?key=global/web/page&name=x.html',
      { auth: server.adminAuth },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment/);
    expectInert(response);
  });

  it('S06 a drive download is an attachment under the sandbox', async () => {
    const save = await http(server.url, '/api/v3/command/drive.save?path=page.html', {
      auth: server.adminAuth,
      type: 'text/html',
      body: SCRIPT_PAGE,
    });
    expect(save.status).toBe(200);
    const response = await http(server.url, '/api/v3/command/drive.read?path=page.html', {
      auth: server.adminAuth,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment/);
    expectInert(response);
  });

  it('S07 errors and unknown API paths carry the same headers', async () => {
    expectInert(await http(server.url, '/api/v3/nothing-here', { auth: server.adminAuth }));
    expectInert(
      await http(server.url, '/api/v3/command/property.value.get?key=global/none', {
        auth: server.adminAuth,
      }),
    );
  });
});

describe('the workbench', () => {
  it('S08 is served with a policy: scripts from our origin only, no framing, nosniff', async () => {
    for (const path of ['/', '/index.html', '/some/route']) {
      const response = await http(server.url, path);
      expect(response.status).toBe(200);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-(inline|eval)/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });
});
