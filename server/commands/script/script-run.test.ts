import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callCommand, codeOf } from '../../testing/command-forms';
import { http, type HttpResponse } from '../../testing/http-client';
import { startTestServer, type TestServer } from '../../testing/test-server';

const TIME_LIMIT = 1000;
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    env: {
      PIPEWORK_SCRIPT_WORKERS: '2',
      // Every script here runs as the admin: it may hold both workers (one user holds one by default).
      PIPEWORK_SCRIPT_WORKERS_PER_USER: '2',
      PIPEWORK_SCRIPT_MILLIS: String(TIME_LIMIT),
      PIPEWORK_SCRIPT_MEMORY: String(16 * 1024 * 1024),
    },
  });
});
afterAll(() => server.close());

function pipeline(yamlOrScript: object, query = ''): Promise<HttpResponse> {
  return http(server.url, `/api/v3/pipeline${query}`, {
    auth: server.adminAuth,
    type: 'application/json',
    body: JSON.stringify(yamlOrScript),
  });
}

/** One script.run step over `body`, in the pipeline form. */
const runScript = (script: string, body: unknown = null, extra: object = {}) =>
  pipeline({ body, pipeline: [{ 'script.run': { script, ...extra } }] });

describe.each(['GET', 'pipeline'] as const)('script.run, %s form', (form) => {
  it('returns what command() returns, with its arguments', async () => {
    const script =
      'function command(pi) { return { sum: pi.args.a + pi.args.b, kind: typeof pi.message.body }; }';
    const response = await callCommand(
      form,
      server.url,
      'script.run',
      { script, args: { a: 2, b: 3 } },
      server.adminAuth,
    );
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ sum: 5, kind: 'object' });
  });

  it('refuses python and groovy with a clear error', async () => {
    for (const language of ['python', 'groovy']) {
      const response = await callCommand(
        form,
        server.url,
        'script.run',
        { script: 'def command(): return 1', language },
        server.adminAuth,
      );
      expect(response.status).toBe(400);
      expect(codeOf(response)).toBe('PARAM_INVALID');
      expect(response.json.value.message).toContain('not supported');
    }
  });
});

describe('script.run in a pipeline', () => {
  it('sees copies of body, headers and vars; changes stay inside the script', async () => {
    const script = `function command(pi) {
      const seen = { items: pi.message.body.items.length, header: pi.message.headers.h, v: pi.message.vars.v };
      pi.message.vars.v = 'changed'; pi.message.body.items.push(99);
      return seen;
    }`;
    const response = await pipeline({
      headers: { h: 'H' },
      vars: { v: 'V' },
      body: { items: [1, 2] },
      pipeline: [
        { 'script.run': { script, output: '#{vars.seen}' } },
        { 'set.body': '#{{ vars: vars, body: body }}' },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      vars: { v: 'V', seen: { items: 2, header: 'H', v: 'V' } },
      body: { items: [1, 2] },
    });
  });

  it("writes the script's log lines to the trace and calls PEL utilities host-side", async () => {
    const script = `function command(pi) {
      pi.log.info('total is', 42);
      pi.log.warn({ careful: true });
      return { upper: pi.util.text.upperCase('abc'), sum: pi.util.calc.sum([1, 2, 3]), ts: typeof pi.util.timestamp() };
    }`;
    const response = await pipeline({ pipeline: [{ 'script.run': { script } }] }, '?trace=true');
    expect(response.json.value?.message).toBeUndefined();
    expect(response.status).toBe(200);
    expect(response.json.body).toEqual({ upper: 'ABC', sum: 6, ts: 'number' });
    expect(response.json.trace[0].logs).toEqual([
      { level: 'INFO', message: 'total is 42' },
      { level: 'WARN', message: '{"careful":true}' },
    ]);
  });

  it('runs the corpus script from its property (path with property:), as the caller', async () => {
    const key = 'global/app/demo/script/helloworld.js';
    const code = readFileSync(
      new URL(`../../../../shared/corpus/app-examples/${key}`, import.meta.url),
      'utf8',
    );
    const put = await callCommand(
      'pipeline',
      server.url,
      'property.schema.put',
      { key, value: code, type: 'application/javascript', evalValue: false },
      server.adminAuth,
    );
    expect(put.status).toBe(200);
    const response = await pipeline(
      { pipeline: [{ 'script.run': { path: `property:${key}` } }] },
      '?trace=true',
    );
    expect(response.json.value?.message).toBeUndefined();
    expect(response.status).toBe(200);
    expect(response.json.body).toBe('HELLO WORLD IN THE BODY');
    expect(response.json.trace[0].logs[0].message).toMatch(/^Pipe script executed at: \d+$/);
    const missing = await pipeline({ pipeline: [{ 'script.run': 'global/app/demo/script/none.js' }] });
    expect(codeOf(missing)).toBe('PROPERTY_NOT_FOUND');
  });

  it("reports a script's own error and a syntax error with the error shape", async () => {
    const thrown = await runScript('function command() { throw new Error("boom"); }');
    expect(thrown.status).toBe(400);
    expect(thrown.json.value.message).toContain('Error: boom');
    const syntax = await runScript('function command( {');
    expect(syntax.status).toBe(400);
    expect(syntax.json.value.message).toContain('SyntaxError');
    const asynchronous = await runScript(
      'async function command(pi) { return (await Promise.resolve(2)) * 3; }',
    );
    expect(asynchronous.json).toBe(6);
    const none = await runScript('var x = 1;');
    expect(none.json.value.message).toContain('must define a function command()');
  });
});

describe('script.run against hostile scripts', () => {
  const simple = 'function command() { return "fine"; }';

  it.each([
    ['an endless loop', 'function command() { while (true) {} }', 'time limit'],
    [
      'an endless loop that catches',
      'function command() { for (;;) { try { while (true) {} } catch (e) {} } }',
      'time limit',
    ],
    // Small objects fill the heap in about 0.2 s; on a loaded machine the time limit may come first.
    [
      'endless allocation',
      'function command() { const a = []; for (;;) a.push({ i: a.length }); }',
      /memory limit|time limit/,
    ],
    // Large arrays past the heap limit leave QuickJS busy without interrupt checks: the pool terminates the worker.
    [
      'endless large arrays',
      'function command() { const a = []; for (;;) a.push(new Array(100000)); }',
      /memory limit|time limit/,
    ],
    ['a string that doubles', 'function command() { let s = "x"; for (;;) s += s; }', 'memory limit'],
    [
      'endless recursion',
      'function command() { function f(n) { return f(n + 1) + 1; } return f(0); }',
      'stack limit',
    ],
  ])(
    'ends %s with LIMIT_EXCEEDED within its limit, then serves the next run',
    async (_name, script, words) => {
      const started = Date.now();
      const response = await runScript(script);
      expect(Date.now() - started).toBeLessThan(TIME_LIMIT + 1500);
      expect(response.status).toBe(422);
      expect(codeOf(response)).toBe('LIMIT_EXCEEDED');
      expect(response.json.value.message).toMatch(words);
      const next = await runScript(simple);
      expect(next.status).toBe(200);
      expect(next.text).toBe('fine');
    },
  );

  it('ends a script that keeps the server busy with utility calls', async () => {
    const started = Date.now();
    const response = await runScript('function command(pi) { for (;;) pi.util.text.repeat("x", 1000000); }');
    expect(Date.now() - started).toBeLessThan(TIME_LIMIT + 1500);
    expect(codeOf(response)).toBe('LIMIT_EXCEEDED');
    const big = await runScript(
      'function command(pi) { return pi.util.text.upperCase("x".repeat(2000000)); }',
    );
    expect(big.status).toBe(400);
    expect(big.json.value.message).toContain('larger than');
    // A late answer to the first script's last call must never be taken for this one's.
    const after = await runScript('function command(pi) { return pi.util.text.upperCase("ok"); }');
    expect(after.text).toBe('OK');
  });

  it.each([
    ['process', 'function command() { return process.pid; }'],
    ['require', 'function command() { return require("fs").readFileSync("/etc/passwd", "utf8"); }'],
    [
      'the host through constructor',
      'function command() { return this.constructor.constructor("return process")().pid; }',
    ],
    [
      'the host through a function constructor',
      'function command() { return (() => 0).constructor("return process.env")(); }',
    ],
    [
      'import',
      'async function command() { return (await import("node:fs")).readFileSync("/etc/passwd", "utf8"); }',
    ],
  ])('finds nothing of the host when it reaches for %s', async (_name, script) => {
    const response = await runScript(script);
    expect(response.status).toBe(400);
    expect(response.json.value.message).toMatch(
      /not defined|not a function|not supported|cannot|could not|undefined/i,
    );
    expect(response.text).not.toContain('root:');
    expect(response.text).not.toContain(String(process.pid));
  });

  it('shows globalThis holding nothing but the language and pi', async () => {
    const response = await runScript(
      'function command() { return Object.getOwnPropertyNames(globalThis).filter(n => ["process", "require", "module", "Buffer", "fetch", "setTimeout", "std", "os", "hostCall", "hostLog"].includes(n)); }',
    );
    expect(response.json).toEqual([]);
  });

  it('keeps Object.prototype pollution inside the one run', async () => {
    const polluted = await runScript(
      'function command() { Object.prototype.polluted = "yes"; Array.prototype.map = null; return ({}).polluted; }',
    );
    expect(polluted.text).toBe('yes');
    const next = await runScript(
      'function command() { return [({}).polluted ?? "clean", [1].map(x => x + 1)]; }',
    );
    expect(next.json).toEqual(['clean', [2]]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('serves other requests, and other scripts, while a script loops', async () => {
    let loopEnded = 0;
    const looping = runScript('function command() { while (true) {} }').then((response) => {
      loopEnded = Date.now();
      return response;
    });
    await new Promise((r) => setTimeout(r, 100));
    const [plain, script] = await Promise.all([
      pipeline({ pipeline: [{ 'set.body': 'plain' }] }),
      runScript(simple),
    ]);
    const othersDone = Date.now();
    expect(plain.text).toBe('plain');
    expect(script.text).toBe('fine');
    expect(codeOf(await looping)).toBe('LIMIT_EXCEEDED');
    expect(othersDone).toBeLessThan(loopEnded);
  });
});
