/**
 * The load test: the real server as a child process, autocannon at a fixed rate with the request mix, event
 * stream clients connected all along, and the server's resident memory sampled over time. Prints p50/p99
 * latency, errors and memory at start and end as JSON (`runLoad`) and, run directly, as a summary:
 *
 *   npm run load -- --seconds 300 --rate 200 --streams 20
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { command } from '../support/requests';
import { ADMIN_AUTH, killHard, startServerProcess } from '../support/server-process';
import { LOAD_APP, loadRequests } from './load-mix';

export interface LoadOptions {
  seconds: number;
  /** Requests per second over all connections. */
  rate: number;
  connections: number;
  /** Event stream clients kept connected during the run. */
  streams: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  non2xx: number;
  p50Ms: number;
  p99Ms: number;
  eventsReceived: number;
  rssMiB: { start: number; peak: number; end: number; samples: number[] };
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kib / 1024);
}

async function connectStreams(
  url: string,
  count: number,
  signal: AbortSignal,
): Promise<{ received: () => number }> {
  let received = 0;
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${url}/api/v3/events?filter=${LOAD_APP}/**`, {
      headers: { authorization: ADMIN_AUTH },
      signal,
    });
    const reader = response.body!.getReader();
    void (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        received += (new TextDecoder().decode(value).match(/^event: /gm) ?? []).length;
      }
    })().catch(() => undefined);
  }
  return { received: () => received };
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pipework-load-'));
  const server = await startServerProcess(dataDir);
  const streamsDone = new AbortController();
  try {
    for (let k = 0; k < 50; k++)
      await command(server.url, 'property.schema.put', { key: `${LOAD_APP}/config/k${k}`, value: '0' });
    const streams = await connectStreams(server.url, options.streams, streamsDone.signal);
    const pid = server.child.pid!;
    const samples = [rssMiB(pid)];
    const sampler = setInterval(
      () => samples.push(rssMiB(pid)),
      Math.max(1000, (options.seconds * 1000) / 30),
    );
    const result = await autocannon({
      url: server.url,
      duration: options.seconds,
      connections: options.connections,
      overallRate: options.rate,
      requests: loadRequests(),
    });
    clearInterval(sampler);
    samples.push(rssMiB(pid));
    return {
      requests: result.requests.total,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      eventsReceived: streams.received(),
      rssMiB: { start: samples[0]!, peak: Math.max(...samples), end: samples.at(-1)!, samples },
    };
  } finally {
    streamsDone.abort();
    await killHard(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
}

if (process.argv[1]?.endsWith('run-load.ts')) {
  const options = {
    seconds: argument('seconds', 300),
    rate: argument('rate', 200),
    connections: argument('connections', 20),
    streams: argument('streams', 20),
  };
  const result = await runLoad(options);
  const { samples, ...rss } = result.rssMiB;
  console.log(JSON.stringify({ options, ...result, rssMiB: rss }, null, 2));
  console.log(`memory samples (MiB): ${samples.join(' ')}`);
  process.exit(result.errors === 0 && result.non2xx === 0 ? 0 : 1);
}
