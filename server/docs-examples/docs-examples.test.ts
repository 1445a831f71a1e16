// The pipelines of the real product's guides and tutorials that need no outside system, run as written: each
// case (cases/*.yaml, written by us from what the page shows) gives the result and the log lines the page
// shows. What is left out, and why, is in README.md beside the cases.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import { parse } from 'yaml';
import type { Principal } from '../../shared/auth';
import { isPipeworkError } from '../../shared/errors';
import { parsePipelineYaml } from '../../shared/pipeline';
import { pdfPages } from '../commands/pdf/pdf-text';
import { executePipeline } from '../pipeline/execute-pipeline';
import { startTestServer, type TestServer } from '../testing/test-server';

interface DocsCase {
  name: string;
  /** Properties stored (as admin) before the run. */
  properties?: { key: string; value: unknown; type?: string }[];
  /** Users created before the run (the page names them). */
  users?: { username: string; email?: string; firstName?: string; lastName?: string }[];
  /** A pipeline of ours run first (as admin) for what the page assumes exists, e.g. a drive file. */
  setup?: string;
  pipeline: string;
  /** The final body the page shows. */
  body?: unknown;
  /** The fields of the final body the page shows (it leaves out or varies the rest: ids, times). */
  bodyMatches?: Record<string, unknown>;
  /** A regular expression the final body (text) matches, where the page's output depends on the clock. */
  bodyPattern?: string;
  /** Regular expressions fields of the body match (by path, `a.b` or `rows.1.x`), where they hold a time. */
  bodyFieldPatterns?: Record<string, string>;
  /** The log lines the page shows, in order (every `log` message of the run). */
  logs?: string[];
  /** Regular expressions the log lines match, in order, where they hold sizes or times. */
  logPatterns?: string[];
  /** The error code the run ends with, where the page shows a failure. */
  error?: string;
  /** Text the error message holds. */
  errorMessage?: string;
  /** A PDF the run saved on the drive, read back as text: its path and a pattern its text matches. */
  pdfText?: { path: string; pattern: string };
  /** The mail the run put in the outbox (the body's `outbox`), read back: its subject and what its parts hold. */
  mail?: { subject?: string; html?: string[]; text?: string[] };
}

interface DocsPage {
  page: string;
  cases: DocsCase[];
}

const folder = join(import.meta.dirname, 'cases');
const pages: DocsPage[] = readdirSync(folder)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => parse(readFileSync(join(folder, f), 'utf8')) as DocsPage);

let server: TestServer;
let admin: Principal;

beforeAll(async () => {
  server = await startTestServer();
  admin = (await server.services.iam.principalByUsername('admin'))!;
});
afterAll(() => server.close());

async function store(property: NonNullable<DocsCase['properties']>[number]): Promise<void> {
  const value = typeof property.value === 'string' ? property.value : JSON.stringify(property.value);
  const type = property.type ?? (typeof property.value === 'string' ? 'text/plain' : 'application/json');
  const exists = await server.services.properties.exists(admin, property.key);
  if (exists) await server.services.properties.put(admin, { key: property.key, value, type });
  else await server.services.properties.create(admin, { key: property.key, value, type });
}

describe.each(pages)('$page', ({ cases }) => {
  it.each(cases)('$name', async (docsCase) => {
    for (const property of docsCase.properties ?? []) await store(property);
    // The bus hands the stored properties' events to its listeners (e.g. the job scheduler) in the next
    // turn of the event loop, before this one.
    if (docsCase.properties) await new Promise((resolve) => setImmediate(resolve));
    for (const user of docsCase.users ?? [])
      if (!(await server.services.iam.principalByUsername(user.username)))
        await server.services.iam.createUser(user);
    if (docsCase.setup)
      await executePipeline(server.services, parsePipelineYaml(docsCase.setup), { principal: admin });
    const script = parsePipelineYaml(docsCase.pipeline);
    let result;
    try {
      result = await executePipeline(server.services, script, { principal: admin, trace: true });
    } catch (error) {
      if (docsCase.error === undefined || !isPipeworkError(error)) throw error;
      expect(error.code).toBe(docsCase.error);
      if (docsCase.errorMessage) expect(error.message).toContain(docsCase.errorMessage);
      return;
    }
    expect(docsCase.error, 'the run should have failed').toBeUndefined();
    if ('body' in docsCase) expect(result.body).toEqual(docsCase.body);
    if (docsCase.bodyMatches) expect(result.body).toMatchObject(docsCase.bodyMatches);
    if (docsCase.bodyPattern) expect(String(result.body)).toMatch(new RegExp(docsCase.bodyPattern));
    for (const [path, pattern] of Object.entries(docsCase.bodyFieldPatterns ?? {})) {
      const field = path
        .split('.')
        .reduce<unknown>((v, k) => (v as Record<string, unknown>)?.[k], result.body);
      expect(String(field), path).toMatch(new RegExp(pattern));
    }
    const logged = (result.trace ?? [])
      .filter((s) => s.command === 'log')
      .flatMap((s) => s.logs.map((l) => l.message));
    if (docsCase.logs) expect(logged).toEqual(docsCase.logs);
    if (docsCase.logPatterns) {
      expect(logged).toHaveLength(docsCase.logPatterns.length);
      docsCase.logPatterns.forEach((pattern, i) => expect(logged[i]).toMatch(new RegExp(pattern)));
    }
    if (docsCase.pdfText) {
      const file = await server.services.drive.read(admin, docsCase.pdfText.path, 10_000_000);
      const text = (await pdfPages(file.data)).map((p) => p.text).join('\n');
      expect(text).toMatch(new RegExp(docsCase.pdfText.pattern));
    }
    if (docsCase.mail) {
      const name = (result.body as { outbox?: string }).outbox;
      expect(name, 'the mail is in the outbox').toBeTypeOf('string');
      const mail = await simpleParser(await server.services.mail.outboxMail(name!));
      if (docsCase.mail.subject !== undefined) expect(mail.subject).toBe(docsCase.mail.subject);
      for (const part of docsCase.mail.html ?? []) expect(String(mail.html)).toContain(part);
      for (const part of docsCase.mail.text ?? []) expect(String(mail.text)).toContain(part);
      if (docsCase.mail.html === undefined) expect(mail.html, 'a text mail').toBe(false);
    }
  });
});
