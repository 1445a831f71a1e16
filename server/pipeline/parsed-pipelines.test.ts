import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../testing/http-client';
import { startTestServer, type TestServer } from '../testing/test-server';
import { parsePipelineCached } from './parsed-pipelines';

describe('parsed pipelines', () => {
  it('keeps a text from its second run on, and gives every run its own body', () => {
    const text = 'body:\n  count: 0\npipeline:\n  - log: hi\n';
    const first = parsePipelineCached(text, 'yaml');
    const second = parsePipelineCached(text, 'yaml');
    const third = parsePipelineCached(text, 'yaml');
    // The first run's script is its own (a text sent once is not kept); the second parse is kept.
    expect(second.steps).not.toBe(first.steps);
    expect(third.steps).toBe(second.steps);
    expect(third.body).toEqual({ count: 0 });
    expect(third.body).not.toBe(second.body);
    expect(second.body).not.toBe(first.body);
  });

  it('throws a syntax error again on every call', () => {
    expect(() => parsePipelineCached('pipeline: [', 'yaml')).toThrow(/./);
    expect(() => parsePipelineCached('pipeline: [', 'yaml')).toThrow(/./);
  });
});

describe('the same pipeline text sent again', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('starts from the body it was sent with, not the one an earlier run changed', async () => {
    const text = 'body:\n  count: 0\n  items: []\npipeline:\n  - eval: "#{body.count = body.count + 1}"\n';
    for (let run = 0; run < 3; run++) {
      const response = await http(server.url, '/api/v3/pipeline', {
        auth: server.adminAuth,
        type: 'application/yaml',
        body: text,
      });
      expect(response.json).toEqual({ count: 1, items: [] });
    }
  });
});
