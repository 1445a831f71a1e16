import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../../testing/http-client';
import { startTestServer, type TestServer } from '../../testing/test-server';
import { callCommand, codeOf, type CommandForm } from '../../testing/command-forms';
import { pdfPages } from './pdf-text';

let server: TestServer;
let letter: Uint8Array<ArrayBuffer>;

/** A two-page letter-size document with text of its own on each page. */
async function sampleLetter(): Promise<Uint8Array<ArrayBuffer>> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  for (const n of [1, 2])
    doc.addPage([612, 792]).drawText(`Original page ${n}`, { x: 72, y: 400, size: 12, font });
  return new Uint8Array(await doc.save());
}

beforeAll(async () => {
  server = await startTestServer();
  letter = await sampleLetter();
});
afterAll(() => server.close());

const stamp = (
  params: Record<string, string>,
  body: string | Uint8Array<ArrayBuffer> = letter,
  type = 'application/pdf',
) =>
  http(server.url, `/api/v3/command/pdf.stamp?${new URLSearchParams(params)}`, {
    auth: server.adminAuth,
    type,
    body,
  });
async function stampedPages(params: Record<string, string>) {
  const response = await fetch(`${server.url}/api/v3/command/pdf.stamp?${new URLSearchParams(params)}`, {
    method: 'POST',
    headers: { authorization: server.adminAuth, 'content-type': 'application/pdf' },
    body: letter,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/pdf');
  return pdfPages(new Uint8Array(await response.arrayBuffer()));
}
const stampItem = (page: { items: { str: string; transform: number[] }[] }, text: string) =>
  page.items.find((i) => i.str === text);

describe('pdf.stamp', () => {
  it('writes the text on the first page by default, keeping what was there', async () => {
    const pages = await stampedPages({ text: 'APPROVED' });
    expect(pages.map((p) => p.text)).toEqual(['Original page 1APPROVED', 'Original page 2']);
    // TOP_RIGHT inside the default 20 pt margin: the text ends near the right edge, near the top
    const item = stampItem(pages[0]!, 'APPROVED')!;
    const [size, , , , x, y] = item.transform as [number, number, number, number, number, number];
    expect(size).toBeCloseTo(18);
    expect(x).toBeGreaterThan(612 - 20 - 120);
    expect(x).toBeLessThan(612 - 20 - 80);
    expect(y).toBeGreaterThan(792 - 20 - 20);
  });

  it('stamps all or chosen pages, at coordinates or named positions, rotated', async () => {
    const all = await stampedPages({ text: 'COPY', pages: 'ALL', position: '100,200', textSize: '30' });
    for (const page of all) {
      const [size, , , , x, y] = stampItem(page, 'COPY')!.transform;
      expect([size, x, y]).toEqual([30, 100, 200]);
    }
    const last = await stampedPages({ text: 'LAST', pages: '-1', position: 'BOTTOM_LEFT', margin: '50' });
    expect(stampItem(last[0]!, 'LAST')).toBeUndefined();
    const [, , , , x, y] = stampItem(last[1]!, 'LAST')!.transform;
    expect(x).toBeCloseTo(50, 0);
    expect(y).toBeGreaterThanOrEqual(50);
    expect(y).toBeLessThan(60);
    const rotated = await stampedPages({
      text: 'DIAGONAL',
      position: 'CENTER',
      degree: '90',
      textColor: '#ff0000',
    });
    const [a, b, c, d] = stampItem(rotated[0]!, 'DIAGONAL')!.transform;
    expect([a, b, c, d].map((v) => Math.round(v!))).toEqual([0, 18, -18, 0]);
  });

  it('works as a pipeline step after pdf.create', async () => {
    const response = await fetch(`${server.url}/api/v3/pipeline`, {
      method: 'POST',
      headers: { authorization: server.adminAuth, 'content-type': 'application/yaml' },
      body:
        'pipeline:\n  - pdf.create: {pages: 3, format: A5}\n' +
        '  - pdf.stamp: {text: "Draft #{1 + 1}", pages: "1-2", opacity: 0.5, textColor: RED}\n',
    });
    expect(response.status).toBe(200);
    const pages = await pdfPages(new Uint8Array(await response.arrayBuffer()));
    expect(pages.map((p) => p.text)).toEqual(['', 'Draft 2', 'Draft 2']);
  });

  it.each<[string, string | Uint8Array<ArrayBuffer>, string]>([
    ['a truncated PDF', '', 'application/pdf'],
    ['a PDF with its middle cut out', '', 'application/pdf'],
    ['text', 'hello, I am no PDF', 'text/plain'],
    ['JSON', '{"pdf": false}', 'application/json'],
    ['a PNG', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), 'image/png'],
    ['a PDF header and garbage', '%PDF-1.7\nthis is not an object\n%%EOF\n', 'application/pdf'],
  ])('refuses %s with BAD_REQUEST', async (what, body, type) => {
    let input = body;
    if (what === 'a truncated PDF') input = letter.slice(0, Math.floor(letter.length / 2));
    if (what === 'a PDF with its middle cut out') {
      const cut = Math.floor(letter.length / 3);
      input = new Uint8Array([...letter.slice(0, cut), ...letter.slice(letter.length - 200)]);
    }
    const response = await stamp({ text: 'X' }, input, type);
    expect([response.status, codeOf(response)]).toEqual([400, 'BAD_REQUEST']);
    expect(response.json.value.message).toMatch(/PDF/);
  });

  it('refuses an encrypted PDF with BAD_REQUEST', async () => {
    const doc = await PDFDocument.load(letter);
    doc.encrypt({ userPassword: 'u', ownerPassword: 'o' });
    const response = await stamp({ text: 'X' }, new Uint8Array(await doc.save()));
    expect([response.status, codeOf(response)]).toEqual([400, 'BAD_REQUEST']);
    expect(response.json.value.message).toMatch(/encrypted/);
  });

  it('refuses an empty body in a pipeline with BAD_REQUEST', async () => {
    const response = await callCommand('pipeline', server.url, 'pdf.stamp', { text: 'X' }, server.adminAuth);
    expect(codeOf(response)).toBe('BAD_REQUEST');
  });

  it.each<[Record<string, string>, string]>([
    [{ text: 'X', pages: '7' }, 'pages'],
    [{ text: 'X', pages: 'first' }, 'pages'],
    [{ text: 'X', textColor: 'PLAID' }, 'textColor'],
    [{ text: 'X', position: 'MIDDLE' }, 'position'],
    [{ text: 'X', opacity: '2' }, 'opacity'],
    [{ text: 'X', degree: '400' }, 'degree'],
    [{ text: 'X', margin: '1,2' }, 'margin'],
    [{ text: '日本語' }, 'text'],
    [{}, 'text'],
  ])('refuses bad parameters %j', async (params, parameter) => {
    const response = await stamp(params);
    expect([codeOf(response), response.json.value.parameter]).toEqual(['PARAM_INVALID', parameter]);
  });
});

describe('pdf.create', () => {
  it.each<CommandForm>(['GET', 'pipeline'])('makes blank pages of a format (%s form)', async (form) => {
    const params = { pages: 2, format: 'LETTER' };
    const url =
      form === 'GET'
        ? `${server.url}/api/v3/command/pdf.create?pages=2&format=LETTER`
        : `${server.url}/api/v3/pipeline`;
    const response = await fetch(url, {
      method: form === 'GET' ? 'GET' : 'POST',
      headers: { authorization: server.adminAuth, 'content-type': 'application/json' },
      body: form === 'GET' ? undefined : JSON.stringify({ pipeline: [{ 'pdf.create': params }] }),
    });
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename=document.pdf');
    const pages = await pdfPages(new Uint8Array(await response.arrayBuffer()));
    expect(pages.map((p) => [p.width, p.height, p.text])).toEqual([
      [612, 792, ''],
      [612, 792, ''],
    ]);
  });

  it.each([{ pages: 0 }, { pages: 100000 }, { format: 'B5' }])('refuses %j', async (params) => {
    expect(codeOf(await callCommand('GET', server.url, 'pdf.create', params, server.adminAuth))).toBe(
      'PARAM_INVALID',
    );
  });
});
