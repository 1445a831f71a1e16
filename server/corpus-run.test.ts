// The real apps' pipelines that use the data, flow, barcode, SQL, script and HTTP commands: each validates,
// and those that need no outside system run — published into a test server as `pi publish` would
// (every file a property, stored by property.schema.put), then triggered the way the app is used.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePipelineYaml } from '../shared/pipeline';
import { readFolder, type LocalProperty } from './cli/publish';
import { http } from './testing/http-client';
import { startTestServer, type TestServer } from './testing/test-server';

const corpus = resolve(import.meta.dirname, '../../shared/corpus/app-examples');
const present = existsSync(corpus);
if (!present) console.warn(`corpus-run tests skipped: the corpus is absent (${corpus})`);

/** The commands of the scripts, HTTP, SQL and data issue: the pipelines that use one are this file's. */
const COMMANDS =
  /^(sql\.query|script\.run|http\.(get|post|put|patch|delete)|data\..+|transform(\..+)?|barcode\.create|switch|pipeline\.(start|run)|call)$/;

/**
 * Pipelines that cannot run here, and why: they talk to a system outside this server.
 * Every other pipeline of this file's kind must run (see the tests below).
 */
const NEEDS_OUTSIDE_SYSTEM: Record<string, string> = {
  'global/app/weclapp/pipeline/article-block.pi.yaml':
    'posts to the weclapp ERP API (https://<tenant>.weclapp.com)',
  'global/app/weclapp/pipeline/article-unblock.pi.yaml':
    'posts to the weclapp ERP API (https://<tenant>.weclapp.com)',
  'global/app/weclapp/pipeline/article-shipment.pi.yaml':
    'reads and writes the weclapp ERP API (https://<tenant>.weclapp.com)',
};

interface Problem {
  code: string;
  severity: string;
  message: string;
  line?: number;
  column?: number;
}

/**
 * Errors in the corpus itself, found by pipeline.validate: article-shipment selects with an empty
 * condition (`shipmentItems?[]`), which PEL (like SpEL) cannot parse.
 */
const KNOWN_PROBLEMS: Record<string, { code: string; line: number; column: number }[]> = {
  'global/app/weclapp/pipeline/article-shipment.pi.yaml': [{ code: 'PEL_SYNTAX', line: 33, column: 55 }],
};

interface CorpusPipeline {
  file: string;
  commands: string[];
}

function corpusPipelines(): CorpusPipeline[] {
  if (!present) return [];
  return readFolder(corpus)
    .filter((p) => p.file.endsWith('.pi.yaml'))
    .map((p) => ({
      file: relative(corpus, p.file),
      commands: parsePipelineYaml(p.value).steps.map((s) => s.command),
    }))
    .filter((p) => p.commands.some((c) => COMMANDS.test(c)));
}

const pipelines = corpusPipelines();
let server: TestServer;

beforeAll(async () => {
  if (present) server = await startTestServer();
});
afterAll(() => server?.close());

/** What `pi publish <folder>` sends: property.schema.put of each file's key, value and type. */
async function publishApp(app: string): Promise<LocalProperty[]> {
  const files = readFolder(corpus).filter((p) => p.key.startsWith(`global/app/${app}/`));
  for (const p of files) {
    const response = await http(server.url, '/api/v3/pipeline', {
      auth: server.adminAuth,
      type: 'application/json',
      body: JSON.stringify({
        pipeline: [{ 'property.schema.put': { key: p.key, value: p.value, type: p.type, evalValue: false } }],
      }),
    });
    expect(response.status, `${p.key}: ${response.text}`).toBe(200);
  }
  return files;
}

describe.skipIf(!present)('the corpus pipelines of scripts, HTTP, SQL, data and flow', () => {
  it('has pipelines of this kind', () => {
    expect(pipelines.map((p) => p.file)).toContain('global/app/barcode/pipeline/create-barcode.pi.yaml');
  });

  it.each(pipelines.map((p) => [p.file, p]))('%s validates', async (_file, p) => {
    const text = readFileSync(join(corpus, p.file), 'utf8');
    const response = await http(server.url, '/api/v3/command/pipeline.validate', {
      body: text,
      type: 'text/plain',
      auth: server.adminAuth,
    });
    expect(response.status).toBe(200);
    const errors = (response.json as Problem[])
      .filter((problem) => problem.severity === 'error')
      .map(({ code, line, column }) => ({ code, line, column }));
    expect(errors).toEqual(KNOWN_PROBLEMS[p.file] ?? []);
  });

  it('lists only outside systems as reasons not to run', () => {
    const runnable = pipelines.filter((p) => !(p.file in NEEDS_OUTSIDE_SYSTEM)).map((p) => p.file);
    // Each runnable pipeline has its run below; a new corpus pipeline must get one (or a reason).
    expect(runnable).toEqual(['global/app/barcode/pipeline/create-barcode.pi.yaml']);
  });

  /**
   * The app's event, as the real product sends it: the new instance property as `target`, its JSON value
   * parsed and its key also as `path` (the filter of create-barcode reads `body.target.path`). Started with
   * pipeline.start, which runs the stored pipeline as the caller (event.listen passes the body on).
   */
  async function submitBarcodeForm(form: Record<string, string>) {
    const key = `global/app/barcode/object/barcode/v1/instance/${form.barcodeName}`;
    const event = { eventKey: 'property.created', target: { key, path: `/${key}`, value: form } };
    return http(server.url, '/api/v3/pipeline', {
      auth: server.adminAuth,
      type: 'application/json',
      body: JSON.stringify({
        body: event,
        pipeline: [{ 'pipeline.start': { key: 'global/app/barcode/pipeline/create-barcode' } }],
      }),
    });
  }

  async function driveFile(path: string): Promise<Buffer> {
    const response = await fetch(`${server.url}/api/v3/command/drive.read?path=${encodeURIComponent(path)}`, {
      headers: { authorization: server.adminAuth },
    });
    expect(response.status, path).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  }

  it('runs the barcode app: a submitted form becomes a PNG on the drive', async () => {
    const published = await publishApp('barcode');
    expect(published.map((p) => p.key)).toContain('global/app/barcode/pipeline/create-barcode');
    const form = { barcodeName: 'parcel-4711', barcodeText: 'PARCEL-4711', barcodeFormat: 'QR_CODE' };
    const run = await submitBarcodeForm(form);
    expect(run.status, run.text).toBe(200);
    expect(run.json).toMatchObject({ name: 'parcel-4711.png' });
    const png = await driveFile('parcel-4711.png');
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const width = png.readUInt32BE(16);
    const height = png.readUInt32BE(20);
    expect(width).toBe(height); // a QR code is square
    expect(width).toBeGreaterThanOrEqual(84);
    // The pixels hold a code, not a blank image.
    expect(png.toString('ascii', 37, 41)).toBe('IDAT');
    const pixels = inflateSync(png.subarray(41, 41 + png.readUInt32BE(33)));
    expect(pixels.filter((b) => b === 0).length).toBeGreaterThan(width * 3);
  });

  it('runs the barcode app with each format its form offers', async () => {
    const formats = JSON.parse(
      readFileSync(join(corpus, 'global/app/barcode/object/barcode/v1/schema.json'), 'utf8'),
    ).properties.barcodeFormat.enum as string[];
    expect(formats.length).toBeGreaterThan(3);
    const texts: Record<string, string> = { EAN_8: '9638507', EAN_13: '4006381333931' };
    for (const format of formats) {
      const name = `code-${format.toLowerCase()}`;
      const run = await submitBarcodeForm({
        barcodeName: name,
        barcodeText: texts[format] ?? 'PIPEWORK-42',
        barcodeFormat: format,
      });
      expect(run.status, `${format}: ${run.text}`).toBe(200);
      const png = await driveFile(`${name}.png`);
      expect(png.toString('ascii', 1, 4), format).toBe('PNG');
    }
  });
});
