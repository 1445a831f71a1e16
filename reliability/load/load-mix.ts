/**
 * The load test's request mix: command calls, pipeline runs, property reads, writes and listings, in the
 * proportions an app's users would produce. Each autocannon connection cycles through the list.
 */
import type { Request } from 'autocannon';
import { ADMIN_AUTH } from '../support/server-process';

export const LOAD_APP = 'global/app/load';

const PIPELINE = [
  'vars:',
  '  total: 0',
  'pipeline:',
  '  - set:',
  '      value: "#{body.items}"',
  '      output: "#{vars.items}"',
  '  - foreach: "#{vars.items}"',
  '  - eval: "#{vars.total = vars.total + vars.item}"',
  '  - foreach.end',
  "  - set.body: \"#{{'total': vars.total, 'upper': @text.upperCase('done')}}\"",
  'body: {"items": [1, 2, 3]}',
  '',
].join('\n');

const headers = { authorization: ADMIN_AUTH };
let counter = 0;

export function loadRequests(): Request[] {
  return [
    { method: 'GET', path: '/api/v3/command/log?message=load', headers },
    {
      method: 'POST',
      path: '/api/v3/pipeline',
      headers: { ...headers, 'content-type': 'application/yaml' },
      body: PIPELINE,
    },
    { method: 'GET', path: `/api/v3/command/property.get?key=${LOAD_APP}/config/k${counter % 50}`, headers },
    {
      method: 'POST',
      path: '/api/v3/command/property.put',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      setupRequest: (request) => ({
        ...request,
        body: `key=${LOAD_APP}/config/k${counter++ % 50}&value=${counter}`,
      }),
    },
    { method: 'GET', path: `/api/v3/command/property.list?pattern=${LOAD_APP}/config/*`, headers },
    {
      method: 'GET',
      path: `/api/v3/command/property.value.get?key=${LOAD_APP}/config/k${counter % 50}`,
      headers,
    },
  ];
}
