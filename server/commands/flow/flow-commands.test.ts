// switch, pipeline.start / pipeline.run and call: over HTTP and as pipeline steps, with stored pipelines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callCommand, codeOf, type CommandForm } from '../../testing/command-forms';
import { http } from '../../testing/http-client';
import { startTestServer, type TestServer } from '../../testing/test-server';
import { MAX_PIPELINE_NESTING } from './nesting';

let server: TestServer;
const admin = async () => (await server.services.iam.principalByUsername('admin'))!;

beforeAll(async () => {
  server = await startTestServer();
  const store = async (key: string, value: string) =>
    server.services.properties.create(await admin(), { key, value, type: 'application/yaml;type=pipeline' });
  await store(
    'global/app/flow/pipeline/total',
    `vars:
  currency: USD
  rate: 2
pipeline:
  - set.body: "#{body.amount * vars.rate} #{vars.currency}"
`,
  );
  await store('global/app/flow/pipeline/echo-vars', 'pipeline:\n  - set.body: "#{vars}"\n');
  await store(
    'global/app/flow/pipeline/loop',
    'pipeline:\n  - pipeline.start: global/app/flow/pipeline/loop\n',
  );
  await store('global/app/flow/pipeline/logs', 'pipeline:\n  - iam.user.list\n');
  await store('global/app/flow/pipeline/broken', 'pipeline:\n  - set.body: "#{1 +}"\n');
  await store('global/app/flow/pipeline/who', 'pipeline:\n  - set.body: "#{@user.username()}"\n');
  await store(`user/${(await admin()).uuid}/pipeline/private`, 'pipeline:\n  - set.body: secret\n');
  await server.services.iam.roles.create({ name: 'ROLE_FLOW' });
  await server.services.iam.roles.addComposites('ROLE_FLOW', [
    'CAN_PIPE_pipeline.start',
    'CAN_PIPE_call',
    'CAN_PIPE_set.body',
  ]);
  await server.services.iam.createUser({
    username: 'flowuser',
    password: 'flow-pass-1',
    roles: ['ROLE_FLOW'],
  });
});
afterAll(() => server.close());

const pipeline = (yaml: string, auth = server.adminAuth) =>
  http(server.url, '/api/v3/pipeline', { body: yaml, type: 'application/yaml', auth });

describe('switch', () => {
  it.each<CommandForm>(['GET', 'pipeline'])(
    'gives the value of the first condition that holds (%s)',
    async (form) => {
      const response = await callCommand(
        form,
        server.url,
        'switch',
        { '#{1 > 2}': 'no', '#{2 > 1}': 'first', true: 'second' },
        server.adminAuth,
      );
      expect(response.status).toBe(200);
      expect(response.text).toBe('first');
    },
  );

  it('reads the body and writes to output in a pipeline; no match leaves the body', async () => {
    const response = await pipeline(`body: {total: 50}
pipeline:
  - switch:
      "#{body.total > 100}": large
      "body.total > 10": "#{'medium ' + body.total}"
      output: "#{vars.size}"
  - switch:
      "#{body.total > 1000}": huge
  - set.body: "#{vars.size}"
`);
    expect(response.json ?? response.text).toBe('medium 50');
  });

  it('refuses a condition that is not true or false', async () => {
    const response = await callCommand(
      'pipeline',
      server.url,
      'switch',
      { "#{'text'}": 'x' },
      server.adminAuth,
    );
    expect(codeOf(response)).toBe('PEL_EVAL');
  });
});

describe('pipeline.start and pipeline.run', () => {
  it.each<CommandForm>(['GET', 'pipeline'])(
    'runs a stored pipeline with vars over its own (%s)',
    async (form) => {
      const response = await callCommand(
        form,
        server.url,
        'pipeline.start',
        { key: 'global/app/flow/pipeline/echo-vars', vars: { a: 1 } },
        server.adminAuth,
      );
      expect(response.status).toBe(200);
      expect(response.json).toEqual({ a: 1 });
    },
  );

  it.each<CommandForm>(['GET', 'pipeline'])(
    'runs it by its deprecated name pipeline.run (%s)',
    async (form) => {
      const response = await callCommand(
        form,
        server.url,
        'pipeline.run',
        { name: 'global/app/flow/pipeline/echo-vars', vars: { b: 'x' } },
        server.adminAuth,
      );
      expect(response.status).toBe(200);
      expect(response.json).toEqual({ b: 'x' });
    },
  );

  it.each(['path', 'key'])('pipeline.run also takes the reference names %s', async (parameter) => {
    const response = await pipeline(`pipeline:
  - pipeline.run:
      ${parameter}: global/app/flow/pipeline/echo-vars
      vars: {c: 1}
`);
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ c: 1 });
  });

  it('pipeline.run without path, key or name is a clear error', async () => {
    const response = await pipeline('pipeline:\n  - pipeline.run:\n      vars: {c: 1}\n');
    expect(response.status).toBe(400);
    expect(response.text).toContain("Missing required parameter 'path'");
  });

  it('passes the body, overrides vars, and returns the final body to output', async () => {
    const response = await pipeline(`body: {amount: 21}
pipeline:
  - pipeline.start:
      key: global/app/flow/pipeline/total
      vars: {currency: EUR}
      output: "#{vars.result}"
  - pipeline.run: global/app/flow/pipeline/total
  - set.body: "#{vars.result + ' / ' + body}"
`);
    expect(response.text).toBe('42 EUR / 42 USD');
  });

  it('never evaluates the given vars again in the called pipeline', async () => {
    const response = await pipeline(`vars:
  sneaky: "#{'#'}{@user.username()}"
  quoted: "it's #{'#'}{1+1}"
pipeline:
  - pipeline.start:
      key: global/app/flow/pipeline/echo-vars
      vars: {x: "#{vars.sneaky}", list: ["#{vars.quoted}"]}
`);
    expect(response.json).toEqual({ x: '#{@user.username()}', list: ["it's #{1+1}"] });
  });

  it('ends a pipeline that starts itself with a clear error, and keeps serving', async () => {
    const started = Date.now();
    const response = await callCommand(
      'GET',
      server.url,
      'pipeline.start',
      { key: 'global/app/flow/pipeline/loop' },
      server.adminAuth,
    );
    expect(response.status).toBe(422);
    expect(codeOf(response)).toBe('LIMIT_EXCEEDED');
    expect(response.json.value.message).toContain(`more than ${MAX_PIPELINE_NESTING} deep`);
    expect(response.json.value.message).toContain('global/app/flow/pipeline/loop');
    expect(Date.now() - started).toBeLessThan(5000);
    const next = await callCommand(
      'GET',
      server.url,
      'pipeline.start',
      { key: 'global/app/flow/pipeline/echo-vars' },
      server.adminAuth,
    );
    expect(next.status).toBe(200);
  });

  it('names the called pipeline and its step when it fails, and a missing one', async () => {
    const broken = await callCommand(
      'GET',
      server.url,
      'pipeline.start',
      { key: 'global/app/flow/pipeline/broken' },
      server.adminAuth,
    );
    expect(codeOf(broken)).toBe('PEL_SYNTAX');
    expect(broken.json.value.message).toContain(
      "Pipeline 'global/app/flow/pipeline/broken' failed at step 1 'set.body'",
    );
    const missing = await callCommand(
      'GET',
      server.url,
      'pipeline.start',
      { key: 'global/app/flow/pipeline/none' },
      server.adminAuth,
    );
    expect(missing.status).toBe(404);
  });

  it('reads and runs the pipeline as the caller', async () => {
    const user = server.basicAuth('flowuser', 'flow-pass-1');
    const who = await callCommand(
      'GET',
      server.url,
      'pipeline.start',
      { key: 'global/app/flow/pipeline/who' },
      user,
    );
    // The called pipeline's steps run as the caller.
    expect(who.text).toBe('flowuser');
    const hidden = await callCommand(
      'GET',
      server.url,
      'pipeline.start',
      { key: `user/${(await admin()).uuid}/pipeline/private` },
      user,
    );
    expect(hidden.status).toBe(403);
    expect(hidden.text).not.toContain('secret');
    const asAdmin = await callCommand(
      'GET',
      server.url,
      'pipeline.start',
      { key: `user/${(await admin()).uuid}/pipeline/private` },
      server.adminAuth,
    );
    expect(asAdmin.text).toBe('secret');
  });

  it('checks the permissions of the called pipeline’s steps for the caller', async () => {
    const user = server.basicAuth('flowuser', 'flow-pass-1');
    const response = await callCommand(
      'GET',
      server.url,
      'pipeline.start',
      { key: 'global/app/flow/pipeline/logs' },
      user,
    );
    expect(response.status).toBe(403);
    expect(response.json.value.message).toContain('CAN_PIPE_iam.user.list');
  });
});

describe('call', () => {
  it.each<CommandForm>(['GET', 'pipeline'])(
    'runs a stored pipeline by URI with args as vars (%s)',
    async (form) => {
      const response = await callCommand(
        form,
        server.url,
        'call',
        { uri: '$uri:property:global/app/flow/pipeline/echo-vars', args: 'a=1, b = two' },
        server.adminAuth,
      );
      expect(response.json).toEqual({ a: '1', b: 'two' });
    },
  );

  it('takes args as a map in a pipeline, with the body', async () => {
    const response = await pipeline(`body: {amount: 5}
pipeline:
  - call:
      uri: property:/global/app/flow/pipeline/total
      args: {rate: 3}
`);
    expect(response.text).toBe('15 USD');
  });

  it('refuses remote URLs and other schemes', async () => {
    for (const uri of ['https://example.com/x', 'classpath:foo', 'file:/etc/passwd']) {
      const response = await callCommand('GET', server.url, 'call', { uri }, server.adminAuth);
      expect(codeOf(response), uri).toBe('PARAM_INVALID');
    }
  });
});
