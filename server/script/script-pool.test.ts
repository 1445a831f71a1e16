import { afterEach, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { ScriptPool, type ScriptHost, type ScriptJob } from './script-pool';

const LIMITS = { memoryBytes: 16 * 1024 * 1024, stackBytes: 256 * 1024, timeoutMillis: 500 };
let pool: ScriptPool | undefined;
afterEach(async () => {
  await pool?.close();
});

const job = (code: string): ScriptJob => ({
  code,
  inputText: JSON.stringify({ body: null, headers: {}, vars: {}, args: {} }),
  catalogText: JSON.stringify([['date', ['timestamp']]]),
});
const host = (overrides: Partial<ScriptHost> = {}): ScriptHost => ({
  log: () => {},
  call: () => '1',
  ...overrides,
});

it('takes a waiting run out of the queue when its pipeline ends, without waiting for a worker', async () => {
  pool = new ScriptPool({ workers: 1, ...LIMITS });
  const looping = pool.run(job('function command() { for (;;) {} }'), host());
  const controller = new AbortController();
  const waiting = pool.run(job('function command() { return 1; }'), host({ signal: controller.signal }));
  const started = Date.now();
  setTimeout(() => controller.abort(), 50);
  expect(await waiting).toMatchObject({ ok: false, reason: 'cancelled' });
  expect(Date.now() - started).toBeLessThan(300);
  expect(await looping).toMatchObject({ ok: false, reason: 'timeout' });
  expect(await pool.run(job('function command() { return 2; }'), host())).toEqual({
    ok: true,
    outputText: '2',
  });
});

it('ends a run whose host call never answers at the time limit, and terminates a cancelled run', async () => {
  pool = new ScriptPool({ workers: 1, ...LIMITS });
  const started = Date.now();
  const stuck = await pool.run(
    job('function command(pi) { return pi.util.date.timestamp(); }'),
    host({ call: () => new Promise<string>(() => {}) }),
  );
  expect(stuck).toMatchObject({ ok: false, reason: 'timeout' });
  expect(Date.now() - started).toBeLessThan(LIMITS.timeoutMillis + 1000);
  const controller = new AbortController();
  const running = pool.run(job('function command() { for (;;) {} }'), host({ signal: controller.signal }));
  setTimeout(() => controller.abort(), 50);
  expect(await running).toMatchObject({ ok: false, reason: 'cancelled' });
  expect(await pool.run(job('function command() { return 3; }'), host())).toEqual({
    ok: true,
    outputText: '3',
  });
});

it.skipIf(!existsSync('/proc/self/task'))(
  'runs scripts at a lower CPU priority than the event loop',
  async () => {
    const niceness = () =>
      readdirSync('/proc/self/task').map((t) =>
        Number(readFileSync(`/proc/self/task/${t}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]),
      );
    const before = niceness().filter((n) => n === 7).length;
    pool = new ScriptPool({ workers: 1, ...LIMITS, niceness: 7 });
    expect(await pool.run(job('function command() { return 4; }'), host())).toEqual({
      ok: true,
      outputText: '4',
    });
    expect(niceness().filter((n) => n === 7).length).toBe(before + 1);
    expect(niceness()[0]).toBe(0); // the main thread keeps its priority
  },
);
