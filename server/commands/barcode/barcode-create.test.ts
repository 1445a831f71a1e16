// barcode.create: PNGs read back (signature, size, pixels) over HTTP and as a pipeline step.
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callCommand, codeOf, type CommandForm } from '../../testing/command-forms';
import { startTestServer, type TestServer } from '../../testing/test-server';
import { BARCODE_FORMATS } from './symbol';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

interface Png {
  width: number;
  height: number;
  dark(x: number, y: number): boolean;
}

/** Reads our PNGs back: signature, IHDR, and the grayscale pixels of the IDAT data. */
function readPng(bytes: Buffer): Png {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(bytes.toString('ascii', 12, 16)).toBe('IHDR');
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const idat: Buffer[] = [];
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    if (bytes.toString('ascii', at + 4, at + 8) === 'IDAT')
      idat.push(bytes.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  expect(raw.length).toBe((width + 1) * height);
  return { width, height, dark: (x, y) => raw[y * (width + 1) + 1 + x] === 0 };
}

async function bytesOf(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

const fetchBarcode = (params: Record<string, string>) =>
  fetch(`${server.url}/api/v3/command/barcode.create?${new URLSearchParams(params)}`, {
    headers: { authorization: server.adminAuth },
  });

describe('barcode.create', () => {
  it('answers a QR code as a PNG of the asked size, finder pattern in place (HTTP)', async () => {
    const response = await fetchBarcode({
      text: 'https://example.com/order/42',
      format: 'QR_CODE',
      width: '290',
      height: '290',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('image/png');
    const png = readPng(await bytesOf(response));
    expect([png.width, png.height]).toEqual([290, 290]);
    // 29 modules (version 3) + 2 × 4 quiet = 37 modules, scale 7 (259 px), centred: 15 px margin.
    const module = (c: number, r: number) => png.dark(15 + 7 * c + 3, 15 + 7 * r + 3);
    expect(module(3, 3)).toBe(false); // quiet zone
    for (let i = 0; i < 7; i++) {
      expect(module(4 + i, 4)).toBe(true); // finder pattern: top edge
      expect(module(4, 4 + i)).toBe(true); // left edge
    }
    expect(module(5, 5)).toBe(false); // its white ring
    expect(module(7, 7)).toBe(true); // its centre
  });

  it.each(Object.keys(BARCODE_FORMATS))('makes %s', async (format) => {
    const text =
      {
        EAN_8: '9638507',
        EAN_13: '590123412345',
        UPC_A: '01234567890',
        UPC_E: '0123456',
        ITF: '12345678',
        CODABAR: 'A40156B',
      }[format] ?? 'PIPEWORK 42';
    const png = readPng(await bytesOf(await fetchBarcode({ text, format })));
    expect(png.width).toBeGreaterThan(20);
    let dark = 0;
    for (let x = 0; x < png.width; x++) if (png.dark(x, Math.floor(png.height / 2))) dark++;
    expect(dark, format).toBeGreaterThan(5);
  });

  it('makes a linear code exactly the asked size, bars running the full height', async () => {
    const png = readPng(
      await bytesOf(await fetchBarcode({ text: 'ABC-123', format: 'CODE_128', width: '400', height: '80' })),
    );
    expect([png.width, png.height]).toEqual([400, 80]);
    const columns = (y: number) => Array.from({ length: png.width }, (_, x) => png.dark(x, y));
    expect(columns(0)).toEqual(columns(79));
    expect(columns(0).filter(Boolean).length).toBeGreaterThan(30);
  });

  it.each<CommandForm>(['GET', 'pipeline'])('defaults to PDF_417 (%s)', async (form) => {
    const response = await callCommand(
      form,
      server.url,
      'barcode.create',
      { text: 'hello' },
      server.adminAuth,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('image/png');
  });

  it('takes the format and text from PEL in a pipeline, as the corpus app does', async () => {
    const response = await fetch(`${server.url}/api/v3/pipeline`, {
      method: 'POST',
      headers: { authorization: server.adminAuth, 'content-type': 'application/yaml' },
      body: `vars:\n  form: {barcodeFormat: EAN_13, barcodeText: '4006381333931'}\npipeline:\n  - barcode.create:\n      format: "#{vars.form.barcodeFormat}"\n      text: "#{vars.form.barcodeText}"\n      width: 300\n      height: 120\n`,
    });
    expect(response.headers.get('content-type')).toContain('image/png');
    const png = readPng(await bytesOf(response));
    expect([png.width, png.height]).toEqual([300, 120]);
  });

  it('refuses an unknown format, text the format cannot hold, and enormous sizes', async () => {
    for (const params of [
      { text: 'x', format: 'MAXICODE_9' },
      { text: 'not digits', format: 'EAN_13' },
      { text: 'x', format: 'QR_CODE', width: '100000' },
      { text: 'x', format: 'QR_CODE', height: 'tall' },
    ]) {
      const response = await callCommand('GET', server.url, 'barcode.create', params, server.adminAuth);
      expect(response.status, JSON.stringify(params)).toBe(400);
      expect(codeOf(response)).toBe('PARAM_INVALID');
    }
  });
});
