/**
 * Scale-out: the throughput of two Pipework instances on one PostgreSQL database against one instance on the
 * same database, in the same run. The same 10 connections go to one instance, or 5 to each of two; the
 * workloads are the throughput bench's 5-step pipeline and a property mix (3 property.put of existing keys to
 * 1 property.list). Load generator, instances and database share this machine's cores: the ratio shows what
 * a second process buys here, not what a second machine would.
 */
import { Buffer } from 'node:buffer';
import { cpus } from 'node:os';
import autocannon, { type Request } from 'autocannon';
import { postgresMissingReason, startTestPostgres } from '../server/testing/postgres';
import { median, type BenchReport } from './bench-report';
import { BENCH_ADMIN_PASSWORD } from './support/bench-constants';
import { buildInstanceBundle, startInstance, type ServerInstance } from './support/server-instances';
import { THROUGHPUT_PIPELINE } from './throughput.bench';

const CONNECTIONS = 10;
const MIX_APP = 'global/app/mix';
const MIX_KEYS = 200;
const AUTH = `Basic ${Buffer.from(`admin:${BENCH_ADMIN_PASSWORD}`).toString('base64')}`;
const headers = { authorization: AUTH };

let written = 0;

/** What each autocannon connection cycles through, per workload. */
const WORKLOADS: Record<string, () => Request[]> = {
  'POST /api/v3/pipeline, 5 steps': () => [
    {
      method: 'POST',
      path: '/api/v3/pipeline',
      headers: { ...headers, 'content-type': 'application/yaml' },
      body: THROUGHPUT_PIPELINE,
    },
  ],
  'property mix, 3 property.put : 1 property.list': () => {
    const put: Request = {
      method: 'POST',
      path: '/api/v3/command/property.put',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      setupRequest: (request) => ({
        ...request,
        body: `key=${MIX_APP}/k${written % MIX_KEYS}&value=${written++}`,
      }),
    };
    const list: Request = {
      method: 'GET',
      path: `/api/v3/command/property.list?pattern=${MIX_APP}/k1*`,
      headers,
    };
    return [put, put, put, list];
  },
};

async function call(url: string, path: string, init: RequestInit = {}): Promise<string> {
  const response = await fetch(`${url}${path}`, { ...init, headers: { ...headers, ...init.headers } });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${text}`);
  return text;
}

/** Seeds the mix's keys through one instance and checks the other sees them and runs the pipeline. */
async function prepare(a: ServerInstance, b: ServerInstance): Promise<void> {
  for (let k = 0; k < MIX_KEYS; k++) {
    await call(a.url, `/api/v3/command/property.schema.put?key=${MIX_APP}/k${k}&type=text/plain`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '0',
    });
  }
  const listed = JSON.parse(
    await call(b.url, `/api/v3/command/property.list?pattern=${MIX_APP}/*`),
  ) as unknown[];
  if (listed.length !== MIX_KEYS)
    throw new Error(`the second instance lists ${listed.length} of ${MIX_KEYS} keys`);
  for (const instance of [a, b]) {
    const body = await call(instance.url, '/api/v3/pipeline', {
      method: 'POST',
      headers: { 'content-type': 'application/yaml', accept: 'application/json' },
      body: THROUGHPUT_PIPELINE,
    });
    if (!body.includes('HELLO ADA')) throw new Error(`the pipeline answered ${body}`);
  }
}

/** Requests per second of `workload` with CONNECTIONS split evenly over `urls`, all at once for `seconds`. */
async function rate(urls: string[], workload: () => Request[], seconds: number): Promise<number> {
  const results = await Promise.all(
    urls.map((url) =>
      autocannon({
        url,
        requests: workload(),
        connections: CONNECTIONS / urls.length,
        duration: seconds,
        pipelining: 1,
      }),
    ),
  );
  for (const result of results) {
    if (result.non2xx > 0 || result.errors > 0) {
      throw new Error(`${result.url}: ${result.non2xx} non-2xx responses, ${result.errors} errors`);
    }
  }
  return results.reduce((sum, result) => sum + result.requests.average, 0);
}

/** Busy and total CPU time of the whole machine so far (all cores, milliseconds). */
function machineCpu(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const { times } of cpus()) {
    const all = times.user + times.nice + times.sys + times.irq + times.idle;
    total += all;
    busy += all - times.idle;
  }
  return { busy, total };
}

/** How busy the machine's cores were while `work` ran, in percent. */
async function busyPercent<T>(work: () => Promise<T>): Promise<{ value: T; busy: number }> {
  const before = machineCpu();
  const value = await work();
  const after = machineCpu();
  return { value, busy: (100 * (after.busy - before.busy)) / Math.max(1, after.total - before.total) };
}

export default async function (report: BenchReport): Promise<void> {
  const missing = postgresMissingReason();
  if (missing) {
    console.log(`  skipped: ${missing}`);
    return;
  }
  const postgres = await startTestPostgres({ durable: true });
  const instances: ServerInstance[] = [];
  try {
    await buildInstanceBundle();
    const env = { PIPEWORK_DATABASE_URL: postgres.url };
    // One after the other: the first creates the schema and the admin, the second finds them.
    instances.push(await startInstance(env));
    instances.push(await startInstance(env));
    const [a, b] = instances as [ServerInstance, ServerInstance];
    await prepare(a, b);
    for (const [name, workload] of Object.entries(WORKLOADS)) {
      await rate([a.url, b.url], workload, 1); // warm-up: JIT and the Basic credential cache on both
      const one: number[] = [];
      const two: number[] = [];
      const busy = { one: [] as number[], two: [] as number[] };
      for (let round = 0; round < 3; round++) {
        const single = await busyPercent(() => rate([a.url], workload, 3));
        const both = await busyPercent(() => rate([a.url, b.url], workload, 3));
        one.push(single.value);
        two.push(both.value);
        busy.one.push(single.busy);
        busy.two.push(both.busy);
      }
      console.log(
        `  ${name}: the machine's ${cpus().length} cores were ${Math.round(median(busy.one))}% busy with 1 instance, ` +
          `${Math.round(median(busy.two))}% with 2 (load generator, instances and PostgreSQL together)`,
      );
      report.add({
        name: `2 instances on one PostgreSQL: ${name}`,
        value: median(two),
        unit: 'req/s',
        baseline: `1 instance, same database`,
        baselineValue: median(one),
      });
    }
  } finally {
    await Promise.all(instances.map((instance) => instance.stop()));
    postgres.stop();
  }
}
