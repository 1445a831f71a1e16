/**
 * Pipeline throughput: executions per second of one 5-step pipeline with expressions, over HTTP to the
 * production server (10 keep-alive connections, Basic and Bearer auth) and run in-process by the engine the
 * way the server's pipeline endpoint runs it (no HTTP, no auth), so the HTTP and auth share shows as a ratio.
 * The machine is shared: only the ratios within one run mean anything, not the absolute figures.
 */
import { Buffer } from 'node:buffer';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { parsePipelineYaml } from '../shared/pipeline';
import { loadConfig } from '../server/config';
import { closeServices, createServices } from '../server/create-services';
import { silentLogger } from '../server/logging/logger';
import { executePipeline } from '../server/pipeline/execute-pipeline';
import { median, type BenchReport } from './bench-report';
import { BENCH_ADMIN_PASSWORD } from './support/bench-constants';
import { startBenchServers } from './support/load';
import { accessToken } from './support/bench-auth';

/** Five steps: set vars, an if, a foreach over 3 items with eval, set.body with utilities. */
export const THROUGHPUT_PIPELINE = `body: {name: ada, items: [2, 3, 4]}
vars: {total: 0}
pipeline:
  - set.var:
      key: greeting
      value: "Hello #{body.name}"
  - if: "#{body.items.size() > 2}"
  - set.var:
      key: many
      value: true
  - if.end
  - foreach: "#{body.items}"
  - eval: "#{vars.total = vars.total + vars.item * 2}"
  - foreach.end
  - set.body: "#{ {'text': @text.upperCase(vars.greeting), 'total': vars.total, 'many': vars.many} }"
`;
const EXPECTED = JSON.stringify({ text: 'HELLO ADA', total: 18, many: true });
const CONNECTIONS = 10;

let sent = 0;

/**
 * Runs per second over HTTP. With `newText`, every request's text differs (a comment with a counter), so the
 * server parses each one: the figure without the parsed-pipeline cache.
 */
export async function pipelinesPerSecond(
  url: string,
  authorization: string,
  seconds: number,
  newText = false,
): Promise<number> {
  const result = await autocannon({
    url: `${url}/api/v3/pipeline`,
    method: 'POST',
    headers: { authorization, 'content-type': 'application/yaml' },
    body: THROUGHPUT_PIPELINE,
    ...(newText
      ? {
          requests: [
            { setupRequest: (request) => ({ ...request, body: `${THROUGHPUT_PIPELINE}# ${sent++}\n` }) },
          ],
        }
      : {}),
    connections: CONNECTIONS,
    duration: seconds,
    pipelining: 1,
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx responses, ${result.errors} errors`);
  }
  return result.requests.average;
}

async function checkedOnce(url: string, authorization: string): Promise<void> {
  const response = await fetch(`${url}/api/v3/pipeline`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/yaml', accept: 'application/json' },
    body: THROUGHPUT_PIPELINE,
  });
  const text = await response.text();
  if (response.status !== 200 || JSON.stringify(JSON.parse(text)) !== EXPECTED) {
    throw new Error(`the throughput pipeline answered ${response.status}: ${text}`);
  }
}

/**
 * The in-process figure: the script parsed from the same text on every run (as the endpoint does) and run
 * with the production services, CONNECTIONS runs in flight at a time, for `ms` milliseconds.
 */
async function inProcessRunner() {
  const dataDir = mkdtempSync(join(tmpdir(), 'pipework-bench-throughput-'));
  const services = await createServices(
    loadConfig({ PIPEWORK_DATA: dataDir, PIPEWORK_ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD }),
    silentLogger(),
    { iam: { announce: () => {} } },
  );
  const principal = (await services.iam.principalByUsername('admin'))!;
  const once = async () => {
    const result = await executePipeline(services, parsePipelineYaml(THROUGHPUT_PIPELINE), { principal });
    if (JSON.stringify(result.body) !== EXPECTED)
      throw new Error(`unexpected ${JSON.stringify(result.body)}`);
  };
  return {
    async perSecond(ms: number): Promise<number> {
      const start = performance.now();
      let runs = 0;
      const worker = async () => {
        while (performance.now() - start < ms) {
          await once();
          runs++;
        }
      };
      await Promise.all(Array.from({ length: CONNECTIONS }, worker));
      return (runs * 1000) / (performance.now() - start);
    },
    async close() {
      await closeServices(services);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export default async function (report: BenchReport): Promise<void> {
  const servers = await startBenchServers();
  const engine = await inProcessRunner();
  try {
    const basic = `Basic ${Buffer.from(`admin:${BENCH_ADMIN_PASSWORD}`).toString('base64')}`;
    const bearer = `Bearer ${await accessToken(servers.pipework)}`;
    await checkedOnce(servers.pipework, basic);
    await checkedOnce(servers.pipework, bearer);
    // Warm-up: JIT on both sides, the one slow hash behind the Basic cache, the RSA check behind Bearer.
    await engine.perSecond(500);
    await pipelinesPerSecond(servers.pipework, basic, 1);
    await pipelinesPerSecond(servers.pipework, bearer, 1);
    const rates = {
      engine: [] as number[],
      basic: [] as number[],
      bearer: [] as number[],
      parsed: [] as number[],
    };
    // Alternating rounds, so drift on a noisy machine hits all three alike.
    for (let round = 0; round < 3; round++) {
      rates.engine.push(await engine.perSecond(2000));
      rates.basic.push(await pipelinesPerSecond(servers.pipework, basic, 2));
      rates.bearer.push(await pipelinesPerSecond(servers.pipework, bearer, 2));
      rates.parsed.push(await pipelinesPerSecond(servers.pipework, bearer, 2, true));
    }
    const [inProcess, basicRate, bearerRate] = [
      median(rates.engine),
      median(rates.basic),
      median(rates.bearer),
    ];
    const name = `POST /api/v3/pipeline, 5 steps, ${CONNECTIONS} connections`;
    report.add({
      name: `${name} (Basic)`,
      value: basicRate,
      unit: 'runs/s',
      baseline: 'same pipeline in-process',
      baselineValue: inProcess,
    });
    report.add({
      name: `${name} (Bearer)`,
      value: bearerRate,
      unit: 'runs/s',
      baseline: 'same pipeline in-process',
      baselineValue: inProcess,
    });
    report.add({
      name: `${name} (Bearer)`,
      value: bearerRate,
      unit: 'runs/s',
      baseline: 'same with Basic',
      baselineValue: basicRate,
    });
    report.add({
      name: `${name} (Bearer), the same text again`,
      value: bearerRate,
      unit: 'runs/s',
      baseline: 'a new text each request (parsed each time)',
      baselineValue: median(rates.parsed),
    });
  } finally {
    await engine.close();
    servers.stop();
  }
}
