/**
 * Issue 18, finding 7: what a failed pipeline leaves behind, as docs/security.md states it. Each command's
 * writes are all or nothing; a run is not: the steps that succeeded before the failure keep their writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf } from '../testing/command-forms';
import { http, type HttpResponse } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';

let server: TestServer;

function run(steps: Record<string, unknown>[]): Promise<HttpResponse> {
  return http(server.url, '/api/v3/pipeline', {
    auth: server.adminAuth,
    type: 'application/json',
    body: JSON.stringify({ pipeline: steps }),
  });
}

async function valueOf(key: string): Promise<unknown> {
  const response = await run([{ 'property.value.get': { key } }]);
  return response.status === 200 ? response.text : codeOf(response);
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('a failed pipeline', () => {
  it('keeps the writes of the steps before the failure, and answers the failure', async () => {
    const response = await run([
      { 'property.schema.put': { key: 'global/half/a', value: 'one' } },
      { 'property.schema.put': { key: 'global/half/b', value: 'two' } },
      { error: { message: 'stop here' } },
      { 'property.schema.put': { key: 'global/half/c', value: 'three' } },
    ]);
    expect([response.status, codeOf(response)]).toEqual([400, 'ASSERTION_FAILED']);
    expect(await valueOf('global/half/a')).toBe('one');
    expect(await valueOf('global/half/b')).toBe('two');
    expect(await valueOf('global/half/c')).toBe('PROPERTY_NOT_FOUND');
  });

  it('writes nothing half within the failing command: a delete by filter that reaches a reserved app deletes nothing', async () => {
    await server.services.properties.store.save(
      { key: 'global/app/sop/config', value: 'built-in' },
      { ifExists: 'skip' },
    );
    const response = await run([
      { 'property.schema.put': { key: 'global/app/sop-near/x', value: 'x' } },
      { 'property.delete': { filter: 'global/app/so*/**' } },
    ]);
    expect([response.status, codeOf(response)]).toEqual([403, 'FORBIDDEN']);
    expect(await valueOf('global/app/sop-near/x')).toBe('x');
    expect(await valueOf('global/app/sop/config')).toBe('built-in');
  });
});
