/**
 * What the run history costs: runs per second of the throughput pipeline over HTTP with the history on
 * (default trace sampling) against the same server with `PIPEWORK_RUNS_HISTORY=off` (goal: at least 0.85).
 */
import { Buffer } from 'node:buffer';
import { median, type BenchReport } from './bench-report';
import { BENCH_ADMIN_PASSWORD } from './support/bench-constants';
import { startBenchServers } from './support/load';
import { pipelinesPerSecond } from './throughput.bench';

export default async function (report: BenchReport): Promise<void> {
  const on = await startBenchServers();
  const off = await startBenchServers({ PIPEWORK_RUNS_HISTORY: 'off' });
  try {
    const basic = `Basic ${Buffer.from(`admin:${BENCH_ADMIN_PASSWORD}`).toString('base64')}`;
    await pipelinesPerSecond(on.pipework, basic, 1);
    await pipelinesPerSecond(off.pipework, basic, 1);
    const rates = { on: [] as number[], off: [] as number[] };
    // Alternating rounds, so drift on a noisy machine hits both alike; seven of them, as the ratio of single
    // 2-second rounds spread from 0.8 to 1.3 on this machine.
    for (let round = 0; round < 7; round++) {
      rates.on.push(await pipelinesPerSecond(on.pipework, basic, 3));
      rates.off.push(await pipelinesPerSecond(off.pipework, basic, 3));
    }
    report.add({
      name: 'POST /api/v3/pipeline, 5 steps, run history on (default sampling)',
      value: median(rates.on),
      unit: 'runs/s',
      baseline: 'run history off',
      baselineValue: median(rates.off),
    });
  } finally {
    on.stop();
    off.stop();
  }
}
