/**
 * `npm run bench:peers`: Pipework against Node-RED and n8n on the same work (the five steps of
 * `orders-work.ts`), the same JSON payload and the same load, in alternating rounds. Every system must first
 * give the same correct answer. Our side authenticates every request (Bearer); the peers run without auth.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import autocannon from 'autocannon';
import { median, type BenchReport } from '../bench-report';
import { accessToken } from '../support/bench-auth';
import { BENCH_ADMIN_PASSWORD } from '../support/bench-constants';
import { startBenchServers } from '../support/load';
import { PROJECT_ROOT } from '../support/project-root';
import { SERVER_NODE_OPTIONS } from '../../scripts/server-node-options.mjs';
// @ts-expect-error -- a plain JavaScript build script without type declarations
import { buildServer } from '../../scripts/build-server.mjs';
import { expectedAnswer, inlinePipeline, orderPayload, ORDERS_STEPS, STORED_ORDERS_KEY } from './orders-work';
import { freePort, startN8n, startNodeRed, waitUntil, type PeerSystem } from './peer-systems';

const PAYLOAD = orderPayload();
const EXPECTED = expectedAnswer(PAYLOAD);
const SECONDS = 3;
/** Rounds per row: a median of five keeps one disturbed round of a noisy machine out of the ratio. */
const ROUNDS = 5;

interface Target {
  label: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  /** A new body per request (the inline pipeline whose text changes). */
  newBody?: () => string;
}

async function answersCorrectly(
  url: string,
  headers: Record<string, string>,
  body: string,
  expected: unknown = EXPECTED,
): Promise<boolean> {
  const response = await fetch(url, { method: 'POST', headers, body });
  if (response.status !== 200) return false;
  return isDeepStrictEqual(JSON.parse(await response.text()), expected);
}

async function rate(target: Target, connections: number): Promise<number> {
  const result = await autocannon({
    url: target.url,
    method: 'POST',
    headers: target.headers,
    body: target.body,
    ...(target.newBody
      ? { requests: [{ setupRequest: (request) => ({ ...request, body: target.newBody!() }) }] }
      : {}),
    connections,
    duration: SECONDS,
    pipelining: 1,
  });
  if (result.non2xx > 0 || result.errors > 0) {
    const statuses = JSON.stringify(result.statusCodeStats);
    throw new Error(
      `${target.label}: ${result.non2xx} non-2xx responses (${statuses}), ${result.errors} errors`,
    );
  }
  return result.requests.average;
}

/** Milliseconds from spawning the built server (fresh data folder) to its first correct pipeline answer. */
async function pipeworkColdStart(): Promise<number> {
  const data = mkdtempSync(join(tmpdir(), 'pipework-peer-cold-'));
  const port = await freePort();
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [...SERVER_NODE_OPTIONS, join(PROJECT_ROOT, 'dist/server/main.mjs')],
    {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        PIPEWORK_DATA: data,
        PIPEWORK_ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const basic = `Basic ${Buffer.from(`admin:${BENCH_ADMIN_PASSWORD}`).toString('base64')}`;
  try {
    await waitUntil(
      () =>
        answersCorrectly(
          `http://127.0.0.1:${port}/api/v3/pipeline`,
          { authorization: basic, 'content-type': 'application/yaml', accept: 'application/json' },
          inlinePipeline(PAYLOAD),
        ),
      child,
      'Pipework',
      60_000,
    );
    return performance.now() - started;
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(data, { recursive: true, force: true });
  }
}

const jsonHeaders = { 'content-type': 'application/json', accept: 'application/json' };
const peerAnswers = (url: string) => answersCorrectly(url, jsonHeaders, JSON.stringify(PAYLOAD));

async function coldStartRows(report: BenchReport): Promise<void> {
  await buildServer();
  const ours: number[] = [];
  const nodeRed: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    ours.push(await pipeworkColdStart());
    const peer = await startNodeRed(peerAnswers);
    if (peer === null) return;
    nodeRed.push(peer.startMillis);
    await peer.stop();
  }
  report.add({
    name: 'peers: cold start of the built server to the first correct answer',
    value: median(ours),
    unit: 'ms',
    baseline: 'Node-RED 4.1, the same',
    baselineValue: median(nodeRed),
  });
}

async function pipeworkTargets(baseUrl: string): Promise<Target[]> {
  const authorization = `Bearer ${await accessToken(baseUrl)}`;
  const stored = await fetch(`${baseUrl}/api/v3/pipeline:${STORED_ORDERS_KEY}`, {
    method: 'PUT',
    headers: { authorization, 'content-type': 'application/yaml' },
    body: ORDERS_STEPS,
  });
  if (!stored.ok) throw new Error(`storing the pipeline answered ${stored.status}: ${await stored.text()}`);
  let sent = 0;
  const yamlHeaders = { authorization, 'content-type': 'application/yaml', accept: 'application/json' };
  const targets: Target[] = [
    {
      label: 'inline pipeline, the same text each time',
      url: `${baseUrl}/api/v3/pipeline`,
      headers: yamlHeaders,
      body: inlinePipeline(PAYLOAD),
    },
    {
      label: 'stored pipeline by key, JSON body',
      url: `${baseUrl}/api/v3/pipeline:${STORED_ORDERS_KEY}`,
      headers: { ...jsonHeaders, authorization },
      body: JSON.stringify(PAYLOAD),
    },
    {
      label: 'inline pipeline, a new text each request',
      url: `${baseUrl}/api/v3/pipeline`,
      headers: yamlHeaders,
      body: inlinePipeline(PAYLOAD),
      newBody: () => inlinePipeline(orderPayload(`Ada ${sent++}`)),
    },
  ];
  for (const target of targets) {
    if (!(await answersCorrectly(target.url, target.headers, target.body))) {
      throw new Error(`Pipework's ${target.label} does not give the expected answer`);
    }
  }
  return targets;
}

async function throughputRows(report: BenchReport): Promise<void> {
  const servers = await startBenchServers();
  const peers: PeerSystem[] = [];
  try {
    const ours = await pipeworkTargets(servers.pipework);
    for (const start of [startNodeRed, startN8n]) {
      const peer = await start(peerAnswers);
      if (peer !== null) peers.push(peer);
    }
    const peerTargets: Target[] = peers.map((peer) => ({
      label: peer.name,
      url: peer.url,
      headers: jsonHeaders,
      body: JSON.stringify(PAYLOAD),
    }));
    for (const connections of [10, 50]) {
      const all = [...ours, ...peerTargets];
      for (const target of all) await rate(target, connections); // warm-up
      const rates = new Map<Target, number[]>(all.map((target) => [target, []]));
      for (let round = 0; round < ROUNDS; round++) {
        // Each round starts with another system, so none always runs right after the same one.
        const order = [...all.slice(round % all.length), ...all.slice(0, round % all.length)];
        for (const target of order) rates.get(target)!.push(await rate(target, connections));
      }
      for (const target of ours) {
        for (const peer of peerTargets) {
          report.add({
            name: `peers: ${target.label}, ${connections} conn`,
            value: median(rates.get(target)!),
            unit: 'runs/s',
            baseline: `${peer.label}, the same work`,
            baselineValue: median(rates.get(peer)!),
          });
        }
      }
    }
  } finally {
    for (const peer of peers) await peer.stop();
    servers.stop();
  }
}

export default async function peersBench(report: BenchReport): Promise<void> {
  await coldStartRows(report);
  await throughputRows(report);
}
