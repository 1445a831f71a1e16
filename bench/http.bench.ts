/** Foundation benchmarks: an authenticated command over HTTP against a bare handler, and engine steps/s. */
import { Buffer } from 'node:buffer';
import { CommandRegistry, coreCommands } from '../shared/commands';
import { log } from '../shared/commands/core/log';
import { compileTemplate } from '../shared/pel';
import { parsePipelineYaml } from '../shared/pipeline';
import { runPipeline } from '../shared/runner';
import { median, type BenchReport } from './bench-report';
import { BENCH_ADMIN_PASSWORD } from './support/bench-constants';
import { requestsPerSecond, startBenchServers } from './support/load';

async function httpRows(report: BenchReport): Promise<void> {
  const servers = await startBenchServers();
  try {
    const basic = {
      authorization: `Basic ${Buffer.from(`admin:${BENCH_ADMIN_PASSWORD}`).toString('base64')}`,
    };
    const path = '/api/v3/command/datetime';
    await requestsPerSecond(servers.pipework + path, basic, 1); // warm-up (and the one slow hash)
    await requestsPerSecond(servers.bare + path, {}, 1);
    const ours: number[] = [];
    const bare: number[] = [];
    for (let round = 0; round < 3; round++) {
      bare.push(await requestsPerSecond(servers.bare + path, {}, 3));
      ours.push(await requestsPerSecond(servers.pipework + path, basic, 3));
    }
    report.add({
      name: 'GET /api/v3/command/datetime (Basic auth)',
      value: median(ours),
      unit: 'req/s',
      baseline: 'bare Express handler',
      baselineValue: median(bare),
    });
  } finally {
    servers.stop();
  }
}

async function engineRows(report: BenchReport): Promise<void> {
  const steps = 1000;
  const yaml = `body: {n: 1}\npipeline:\n${'  - log:\n      message: "n=#{body.n}"\n      level: DEBUG\n'.repeat(steps)}`;
  const script = parsePipelineYaml(yaml);
  const registry = new CommandRegistry([...coreCommands]);
  const principal = {
    uuid: 'u',
    username: 'bench',
    roles: new Set(['ROLE_ADMIN']),
    groups: new Set<string>(),
    tenants: new Set<string>(),
  };
  const options = { registry, services: {}, principal };
  // Baseline: the same work without the engine: the template evaluated (compiled once) and the command
  // function called, in a plain loop.
  const template = compileTemplate('n=#{body.n}');
  const scope = { body: { n: 1 }, vars: {}, headers: {} };
  const context = { params: { level: 'DEBUG' }, input: scope.body, log: () => {} } as unknown as Parameters<
    typeof log.run
  >[0];
  const rounds: { ours: number; base: number }[] = [];
  for (let round = 0; round < 5; round++) {
    let start = performance.now();
    let runs = 0;
    while (performance.now() - start < 400) {
      await runPipeline(script, options);
      runs++;
    }
    const ours = (runs * steps * 1000) / (performance.now() - start);
    start = performance.now();
    let calls = 0;
    while (performance.now() - start < 400) {
      for (let i = 0; i < steps; i++) {
        context.params.message = template.evaluate(scope);
        log.run(context);
      }
      calls += steps;
    }
    rounds.push({ ours, base: (calls * 1000) / (performance.now() - start) });
  }
  report.add({
    name: 'engine: 1,000-step pipeline (log with a template)',
    value: median(rounds.map((r) => r.ours)),
    unit: 'steps/s',
    baseline: 'template + command in a loop',
    baselineValue: median(rounds.map((r) => r.base)),
  });
}

export default async function (report: BenchReport): Promise<void> {
  await httpRows(report);
  await engineRows(report);
}
