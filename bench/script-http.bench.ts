/**
 * Scripts and outbound HTTP, each against a baseline measured in the same run: `script.run` with a small
 * script (a fresh QuickJS sandbox per run, in the worker pool) against the same computation as a PEL step,
 * and `http.get` to a loopback server (allowed by configuration) against a bare Node `fetch` to it.
 */
import type { BenchReport } from './bench-report';
import { compareAsync } from './support/compare-async';
import type { Principal } from '../shared/auth';
import type { PipelineScript } from '../shared/pipeline';
import { parsePipelineYaml } from '../shared/pipeline';
import { startLoopbackListener } from '../server/http-client/loopback-listener';
import { executePipeline } from '../server/pipeline/execute-pipeline';
import type { ServerServices } from '../server/services';
import { startTestServer } from '../server/testing/test-server';

function runner(services: ServerServices, principal: Principal, script: PipelineScript, expected: unknown) {
  const wanted = JSON.stringify(expected);
  return async () => {
    const result = await executePipeline(services, script, { principal });
    if (JSON.stringify(result.body) !== wanted)
      throw new Error(`unexpected result ${JSON.stringify(result.body)}`);
  };
}

async function scriptRows(report: BenchReport, services: ServerServices, admin: Principal): Promise<void> {
  const body = 'body: { price: 12.5, qty: 3, items: [1, 2, 3, 4] }\n';
  const script = parsePipelineYaml(
    `${body}pipeline:\n  - script.run:\n      script: |\n        function command(pi) {\n          const b = pi.message.body;\n          return { total: b.price * b.qty, count: b.items.length };\n        }\n`,
  );
  const pel = parsePipelineYaml(
    `${body}pipeline:\n  - set.body: "#{ {'total': body.price * body.qty, 'count': body.items.size()} }"\n`,
  );
  const expected = { total: 37.5, count: 4 };
  const { ours, baseline } = await compareAsync(
    runner(services, admin, script, expected),
    runner(services, admin, pel, expected),
  );
  report.add({
    name: 'script.run: small script, fresh sandbox per run',
    value: ours,
    unit: 'runs/s',
    baseline: 'the same as a PEL set.body',
    baselineValue: baseline,
  });
}

async function httpRows(report: BenchReport, services: ServerServices, admin: Principal): Promise<void> {
  const listener = await startLoopbackListener('127.0.0.1');
  try {
    const url = `${listener.url}/json`;
    const script = parsePipelineYaml(`pipeline:\n  - http.get: "${url}"\n`);
    const expected = { hello: 'world' };
    const { ours, baseline } = await compareAsync(runner(services, admin, script, expected), async () => {
      const response = await fetch(url);
      const json: unknown = await response.json();
      if (JSON.stringify(json) !== JSON.stringify(expected)) throw new Error('unexpected fetch result');
    });
    report.add({
      name: 'http.get to a loopback server (allowed by config)',
      value: ours,
      unit: 'calls/s',
      baseline: 'bare Node fetch',
      baselineValue: baseline,
    });
  } finally {
    await listener.close();
  }
}

export default async function (report: BenchReport): Promise<void> {
  const server = await startTestServer({
    env: { PIPEWORK_HTTP_ALLOW_HOSTS: '127.0.0.1', PIPEWORK_SCRIPT_WORKERS: '2' },
  });
  try {
    const admin = (await server.services.iam.principalByUsername('admin'))!;
    await scriptRows(report, server.services, admin);
    await httpRows(report, server.services, admin);
  } finally {
    await server.close();
  }
}
