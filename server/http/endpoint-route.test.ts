// The edge of every shared/api endpoint: the query and the JSON body are checked against the endpoint's
// schemas before its handler runs, each problem a PARAM_INVALID or BAD_REQUEST naming what is wrong.
import express from 'express';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineEndpoint, endpointUrl, runStoredPipeline } from '../../shared/api';
import { errorHandler } from './error-response';
import { routeOf, serveEndpoint } from './endpoint-route';
import { silentLogger } from '../logging/logger';
import { http } from '../testing/http-client';

const find = defineEndpoint<
  { id: string },
  { limit?: number; kind?: 'a' | 'b'; name: string },
  { flag?: boolean; n: number },
  unknown
>({
  method: 'POST',
  path: '/things/:id',
  summary: 'the thing finder',
  query: {
    type: 'object',
    properties: {
      limit: { type: 'integer', minimum: 0, maximum: 10 },
      kind: { type: 'string', enum: ['a', 'b'] },
      name: { type: 'string' },
    },
    required: ['name'],
  },
  body: {
    type: 'object',
    properties: { flag: { type: 'boolean' }, n: { type: 'integer' } },
    required: ['n'],
  },
  maxBodyBytes: 100,
});

/** Served at its path and its other spellings. */
const aliased = defineEndpoint<Record<string, never>, Record<string, never>, Record<string, never>, string>({
  method: 'GET',
  path: '/old/thing',
  aliases: ['/thing:old', '/new/thing'],
  summary: 'the aliased thing',
  query: { type: 'object', properties: {} },
});

/** A value after a colon, slashes and all: routed by the pattern, its URL built from the path. */
const keyed = defineEndpoint<{ key: string }, Record<string, never>, Record<string, never>, string>({
  method: 'GET',
  path: '/keyed::key',
  pattern: /^\/keyed:(.+)$/,
  summary: 'the keyed thing',
});

let url = '';
let close = () => {};

beforeAll(async () => {
  const app = express();
  const router = express.Router();
  serveEndpoint(router, find, [], async ({ params, query, body }) => ({ params, query, body }));
  serveEndpoint(router, aliased, [], async ({ req }) => req.path);
  serveEndpoint(router, keyed, [], async ({ req }) =>
    decodeURIComponent(/^\/keyed:(.+)$/.exec(req.path)![1]!),
  );
  app.use(router);
  app.use(errorHandler(silentLogger()));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

const post = (path: string, body: string) =>
  http(url, path, { method: 'POST', body, type: 'application/json' });

describe('an endpoint of shared/api', () => {
  it('hands the handler the checked query (numbers read from text), body and path parameters', async () => {
    const answer = await post('/things/x%2Fy?limit=5&kind=a&name=n', '{"n": 2, "flag": true}');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      params: { id: 'x/y' },
      query: { limit: 5, kind: 'a', name: 'n' },
      body: { n: 2, flag: true },
    });
  });

  it.each([
    [
      'an unknown parameter',
      '/things/1?name=n&lmit=5',
      '{"n":1}',
      'lmit',
      "Unknown parameter 'lmit' for the thing finder; it takes limit, kind, name.",
    ],
    ['a number out of range', '/things/1?name=n&limit=11', '{"n":1}', 'limit', "'limit' must be <= 10."],
    ['a value not in the list', '/things/1?name=n&kind=c', '{"n":1}', 'kind', "'kind' must be one of a, b."],
    ['a missing parameter', '/things/1', '{"n":1}', 'name', "'name' is required for the thing finder."],
    [
      'a repeated parameter',
      '/things/1?name=n&name=m',
      '{"n":1}',
      'name',
      "'name' must be given once, as text.",
    ],
    [
      'an unknown field',
      '/things/1?name=n',
      '{"n":1,"x":2}',
      'x',
      "Unknown field 'x' for the thing finder; it takes flag, n.",
    ],
    ['a field of the wrong type', '/things/1?name=n', '{"n":"many"}', 'n', "'n' must be integer."],
    ['a number sent as text in a JSON body', '/things/1?name=n', '{"n":"2"}', 'n', "'n' must be integer."],
  ])('refuses %s with PARAM_INVALID naming it', async (_, path, body, parameter, message) => {
    const answer = await post(path, body);
    expect(answer.status).toBe(400);
    expect(answer.json.value).toMatchObject({ code: 'PARAM_INVALID', parameter, message });
  });

  it('refuses a body that is not a JSON object, or too large, with BAD_REQUEST or 413', async () => {
    expect((await post('/things/1?name=n', '[1]')).json.value.code).toBe('BAD_REQUEST');
    expect((await post('/things/1?name=n', '{"n":')).json.value.code).toBe('BAD_REQUEST');
    const large = await post('/things/1?name=n', JSON.stringify({ n: 1, flag: true, pad: 'x'.repeat(200) }));
    expect(large.status).toBe(413);
  });

  it('builds the URL a client calls, path parameters encoded and empty query values left out', () => {
    expect(endpointUrl(find, { id: 'a b' }, { name: 'n', kind: undefined, limit: 0 })).toBe(
      '/things/a%20b?name=n&limit=0',
    );
  });

  it('answers at every path of an endpoint (its aliases) and routes by its pattern where a path cannot', async () => {
    for (const path of ['/old/thing', '/thing:old', '/new/thing']) {
      expect((await http(url, path)).json).toBe(path);
    }
    expect((await http(url, '/old/thing?x=1')).json.value.message).toBe(
      "Unknown parameter 'x' for the aliased thing; it takes none.",
    );
    const path = endpointUrl(keyed, { key: 'global/app/a b' });
    expect(path).toBe('/keyed:global%2Fapp%2Fa%20b');
    expect((await http(url, path)).json).toBe('global/app/a b');
    expect(routeOf(keyed)).toEqual(keyed.pattern);
    expect(routeOf(aliased)).toEqual(['/old/thing', '/thing:old', '/new/thing']);
  });

  it('builds a stored pipeline URL the stored pipeline route reads back', () => {
    const path = endpointUrl(runStoredPipeline, { reference: 'global/app/my pipe' });
    expect(path).toBe('/api/v3/pipeline:global%2Fapp%2Fmy%20pipe');
    expect(decodeURIComponent(runStoredPipeline.pattern!.exec(path)![1]!)).toBe('global/app/my pipe');
  });
});
