// json.validate: syntax and JSON Schema validation, the schema inline or from a URI; a schema that is not
// one, and a backtracking pattern (run on RE2, so no stall).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf } from '../../testing/command-forms';
import { http } from '../../testing/http-client';
import { startTestServer, type TestServer } from '../../testing/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const pipeline = (yaml: string) =>
  http(server.url, '/api/v3/pipeline', { body: yaml, type: 'application/yaml', auth: server.adminAuth });

const schema = `{"type": "object", "properties": {"age": {"type": "number"}, "gender": {"type": "string", "enum": ["male", "female", "neutral"]}}}`;

describe('json.validate', () => {
  it('gives ok for a valid document and every error for an invalid one', async () => {
    const ok = await pipeline(
      `pipeline:\n  - json.validate:\n      schema: ${schema}\n      input: {"age": 23, "gender": "male"}\n`,
    );
    expect(ok.json).toEqual({ status: 'ok', message: '' });
    const bad = await pipeline(
      `pipeline:\n  - json.validate:\n      schema: ${schema}\n      input: {"age": "old", "gender": "x"}\n`,
    );
    expect(bad.status).toBe(200);
    expect(bad.json.status).toBe('error');
    expect(bad.json.message).toContain('/age: must be number');
    expect(bad.json.message).toContain('/gender: must be equal to one of the allowed values');
  });

  it('checks the syntax only without a schema; throwException fails the run', async () => {
    const text = await pipeline('pipeline:\n  - json.validate:\n      input: "{\\"a\\": "\n');
    expect(text.json.status).toBe('error');
    expect(text.json.message).toContain('not JSON');
    const thrown = await pipeline(
      `pipeline:\n  - json.validate:\n      schema: ${schema}\n      throwException: true\n      input: {"age": "old"}\n`,
    );
    expect(codeOf(thrown)).toBe('ASSERTION_FAILED');
  });

  it('reads the schema from a property by URI, with or without the $', async () => {
    const response = await pipeline(`pipeline:
  - property.schema.put:
      key: global/app/jv/object/person/v1/schema
      type: application/json
      value: ${schema}
  - json.validate:
      schema: "uri:property:global/app/jv/object/person/v1/schema"
      input: {"age": 23}
      output: "#{vars.plain}"
  - json.validate:
      schema: "$uri:property:global/app/jv/object/person/v1/schema"
      input: {"age": "x"}
  - set.body:
      value: "#{{'a': vars.plain.status, 'b': body.status}}"
`);
    expect(response.json, response.text).toEqual({ a: 'ok', b: 'error' });
  });

  it('refuses a schema that is not one, clearly', async () => {
    const invalid = await pipeline(
      'pipeline:\n  - json.validate:\n      schema: {"type": "nonsense"}\n      input: {}\n',
    );
    expect(codeOf(invalid)).toBe('PARAM_INVALID');
    expect(invalid.json.value.message).toContain('not a valid JSON Schema');
    const notJson = await pipeline('pipeline:\n  - json.validate:\n      schema: "{oops"\n      input: {}\n');
    expect(codeOf(notJson)).toBe('PARAM_INVALID');
    const list = await pipeline('pipeline:\n  - json.validate:\n      schema: [1]\n      input: {}\n');
    expect(codeOf(list)).toBe('PARAM_INVALID');
    const version = await pipeline(
      'pipeline:\n  - json.validate:\n      schema: {}\n      version: V4\n      input: {}\n',
    );
    expect(codeOf(version)).toBe('PARAM_INVALID');
  });

  it("takes the draft the schema's $schema names when no version is given", async () => {
    // prefixItems exists from draft 2020-12 on: under draft-07 it would be ignored and the document pass.
    const strict = (named: string) =>
      pipeline(
        `pipeline:\n  - json.validate:\n      schema: {"$schema": "${named}", "type": "array", "prefixItems": [{"type": "number"}]}\n      input: ["x"]\n`,
      );
    const draft2020 = await strict('https://json-schema.org/draft/2020-12/schema');
    expect(draft2020.status, draft2020.text).toBe(200);
    expect(draft2020.json.status).toBe('error');
    const draft6 = await strict('http://json-schema.org/draft-06/schema#');
    expect(draft6.json, draft6.text).toEqual({ status: 'ok', message: '' });
  });

  it('runs a backtracking pattern without a stall (RE2)', async () => {
    const started = Date.now();
    const response = await pipeline(`pipeline:
  - json.validate:
      schema: {"type": "string", "pattern": "^(a+)+$"}
      input: "#{'\\"' + @text.repeat('a', 40000) + '!\\"'}"
`);
    expect(response.status, response.text).toBe(200);
    expect(response.json.status).toBe('error');
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
