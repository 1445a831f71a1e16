/** Auth benchmarks: one authenticated command with Bearer, with Basic, and a bare Express handler, in the same run. */
import { Buffer } from 'node:buffer';
import { median, type BenchReport } from './bench-report';
import { BENCH_ADMIN_PASSWORD } from './support/bench-constants';
import { requestsPerSecond, startBenchServers } from './support/load';
import { accessToken } from './support/bench-auth';

const PATH = '/api/v3/command/datetime';

export default async function (report: BenchReport): Promise<void> {
  const servers = await startBenchServers();
  try {
    const basic = {
      authorization: `Basic ${Buffer.from(`admin:${BENCH_ADMIN_PASSWORD}`).toString('base64')}`,
    };
    const bearer = { authorization: `Bearer ${await accessToken(servers.pipework)}` };
    // Warm-up: JIT, the one slow hash behind the Basic cache, the one RSA check behind the Bearer cache.
    await requestsPerSecond(servers.bare + PATH, {}, 1);
    await requestsPerSecond(servers.pipework + PATH, basic, 1);
    await requestsPerSecond(servers.pipework + PATH, bearer, 1);
    const rates = { bare: [] as number[], basic: [] as number[], bearer: [] as number[] };
    // Alternating rounds, so drift on a noisy machine hits all three alike.
    for (let round = 0; round < 3; round++) {
      rates.bare.push(await requestsPerSecond(servers.bare + PATH, {}, 2));
      rates.basic.push(await requestsPerSecond(servers.pipework + PATH, basic, 2));
      rates.bearer.push(await requestsPerSecond(servers.pipework + PATH, bearer, 2));
    }
    const [bare, basicRate, bearerRate] = [median(rates.bare), median(rates.basic), median(rates.bearer)];
    const row = { name: `GET ${PATH} (Bearer)`, value: bearerRate, unit: 'req/s' };
    report.add({ ...row, baseline: 'bare Express handler', baselineValue: bare });
    report.add({ ...row, baseline: `same with Basic`, baselineValue: basicRate });
    // Basic against the bare handler is the foundation's row (http.bench.ts).
  } finally {
    servers.stop();
  }
}
