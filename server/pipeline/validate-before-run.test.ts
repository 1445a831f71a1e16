// Every way a run starts validates the whole pipeline first: a mistake in step 5 means steps 1..4 never ran.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';
import { problemsBeforeRun, validatedStepLists } from './validate-before-run';
import { parsePipelineCached } from './parsed-pipelines';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const INVALID_STEP_5 = `pipeline:
  - property.schema.put:
      path: global/validator/one
      value: 1
  - property.schema.put:
      path: global/validator/two
      value: 2
  - property.schema.put:
      path: global/validator/three
      value: 3
  - property.schema.put:
      path: global/validator/four
      value: 4
  - lgo: "#{@nosuch.thing()}"
  - property.schema.put:
      pth: global/validator/six
`;

async function exists(key: string): Promise<boolean> {
  const response = await http(server.url, `/api/v3/command/property.exists?path=${key}`, {
    auth: server.adminAuth,
  });
  return response.json as boolean;
}

async function expectNothingWritten(): Promise<void> {
  for (const key of ['one', 'two', 'three', 'four'])
    expect(await exists(`global/validator/${key}`)).toBe(false);
}

describe('validation before the first step', () => {
  it('answers every problem of a pipeline posted over HTTP, each with its place, and writes nothing', async () => {
    const response = await http(server.url, '/api/v3/pipeline', {
      body: INVALID_STEP_5,
      type: 'application/yaml',
      auth: server.adminAuth,
    });
    expect(response.status).toBe(404);
    const value = (response.json as { value: Record<string, unknown> }).value;
    expect(value).toMatchObject({ code: 'COMMAND_NOT_FOUND', line: 14, column: 5, commandIndex: 4 });
    expect(value.message).toMatch(/^Unknown command 'lgo'\. Did you mean 'log'\? \(and 3 more problems: /);
    expect(value.problems).toEqual([
      expect.objectContaining({ code: 'COMMAND_NOT_FOUND', line: 14, column: 5 }),
      expect.objectContaining({ code: 'PEL_EVAL', line: 14, column: 13 }),
      expect.objectContaining({ code: 'PARAM_INVALID', line: 15, column: 5, parameter: 'path' }),
      expect.objectContaining({ code: 'PARAM_INVALID', line: 16, column: 12, parameter: 'pth' }),
    ]);
    await expectNothingWritten();
  });

  it('refuses a stored pipeline the same way (pipeline.start and the persisted endpoint)', async () => {
    const stored = await http(server.url, '/api/v3/command/property.schema.put', {
      body: new URLSearchParams({
        path: 'global/validator/bad',
        type: 'application/yaml',
        value:
          'pipeline:\n  - property.schema.put:\n      path: global/validator/one\n      value: 1\n  - log:\n      mesage: x\n',
      }).toString(),
      type: 'application/x-www-form-urlencoded',
      auth: server.adminAuth,
    });
    expect(stored.status, stored.text).toBe(200);
    const started = await http(server.url, '/api/v3/pipeline', {
      body: 'pipeline:\n  - pipeline.start: global/validator/bad\n',
      type: 'application/yaml',
      auth: server.adminAuth,
    });
    expect((started.json as { value: { code: string; message: string } }).value).toMatchObject({
      code: 'PARAM_INVALID',
      message: expect.stringContaining(
        "Unknown parameter 'mesage' for command 'log'. Did you mean 'message'?",
      ),
    });
    const persisted = await http(server.url, '/api/v3/pipeline:global/validator/bad', {
      method: 'POST',
      auth: server.adminAuth,
    });
    expect(persisted.status).toBe(400);
    await expectNothingWritten();
  });

  it('refuses a workbench (debug) run with every problem and writes nothing', async () => {
    const response = await http(server.url, '/api/v3/pipeline/debug', {
      body: JSON.stringify({ pipeline: INVALID_STEP_5, form: 'yaml' }),
      type: 'application/json',
      auth: server.adminAuth,
    });
    expect(response.status).toBe(404);
    expect((response.json as { value: { problems: unknown[] } }).value.problems).toHaveLength(4);
    await expectNothingWritten();
  });

  it('blocks only on errors: a warning still runs', async () => {
    const response = await http(server.url, '/api/v3/pipeline', {
      body: 'vars:\n  a: #{1}\npipeline:\n  - set.body: ok\n',
      type: 'application/yaml',
      auth: server.adminAuth,
    });
    expect(response.status).toBe(200);
  });

  it('validates a repeated text once: the parsed script cache hands back the same steps', () => {
    const text = 'pipeline:\n  - log: hi\n';
    parsePipelineCached(text, 'yaml'); // a text is kept from its second run on
    const first = problemsBeforeRun(parsePipelineCached(text, 'yaml'), server.services.commands);
    const again = problemsBeforeRun(parsePipelineCached(text, 'yaml'), server.services.commands);
    expect(again).toBe(first);
  });

  it('knows a new text clean by its steps (the data in body: changes), and still places every problem', () => {
    const steps = 'pipeline:\n  - set.var:\n      key: n\n      value: "#{body.n + 1}"\n';
    const commands = server.services.commands;
    expect(problemsBeforeRun(parsePipelineCached(`body: {n: 1}\n${steps}`, 'yaml'), commands)).toEqual([]);
    const before = validatedStepLists();
    for (let n = 2; n < 6; n++)
      expect(problemsBeforeRun(parsePipelineCached(`body: {n: ${n}}\n${steps}`, 'yaml'), commands)).toEqual(
        [],
      );
    expect(validatedStepLists()).toBe(before);
    // Other steps are validated; a broken list is validated each time, with the places of its own text.
    const broken = (lines: number) =>
      `body:\n${'  # a comment\n'.repeat(lines)}  n: 1\npipeline:\n  - set.var:\n      ky: n\n`;
    const [first] = problemsBeforeRun(parsePipelineCached(broken(0), 'yaml'), commands);
    const [second] = problemsBeforeRun(parsePipelineCached(broken(3), 'yaml'), commands);
    expect(first).toMatchObject({ code: 'PARAM_INVALID', line: 4 });
    expect(second).toMatchObject({ code: 'PARAM_INVALID', line: 7 });
    expect(validatedStepLists()).toBe(before + 2);
  });
});
