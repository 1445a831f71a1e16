/**
 * The short form of the load test (the full one is `npm run load`, 5 minutes): a fixed rate of mixed requests
 * with event streams connected, no errors, and memory that does not keep growing.
 */
import { expect, it } from 'vitest';
import { runLoad } from './load/run-load';

it('holds a fixed rate of mixed requests with event streams connected: no errors, memory flat', async () => {
  const result = await runLoad({
    seconds: Number(process.env.LOAD_SECONDS ?? 20),
    rate: 100,
    connections: 10,
    streams: 10,
  });
  console.log(
    `load: ${result.requests} requests, ${result.errors} errors, ${result.non2xx} non-2xx, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, RSS ${result.rssMiB.start} → ${result.rssMiB.end} MiB (peak ${result.rssMiB.peak}), ${result.eventsReceived} events`,
  );
  expect(result.errors).toBe(0);
  expect(result.non2xx).toBe(0);
  expect(result.requests).toBeGreaterThan(0);
  expect(result.eventsReceived).toBeGreaterThan(0);
  // Flat: the last third of the run grows by less than a quarter over the first third's peak.
  const third = Math.max(1, Math.floor(result.rssMiB.samples.length / 3));
  const early = Math.max(...result.rssMiB.samples.slice(0, third));
  const late = Math.max(...result.rssMiB.samples.slice(-third));
  expect(late).toBeLessThan(early * 1.25 + 16);
});
