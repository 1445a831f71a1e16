import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { LabeledCounter, LabeledHistogram } from './labeled-metrics';

const BUCKETS = [0.001, 0.01, 0.1, 1, 10];
const OBSERVED: [string, string, number][] = [
  ['GET', '/api/v3/command', 0.0004],
  ['POST', '/api/v3/pipeline', 0.002],
  ['GET', '/api/v3/command', 0.01],
  ['GET', 'a "quoted"\\route\nwith a new line', 3],
  ['POST', '/api/v3/pipeline', 42],
  ['GET', '/api/v3/command', 0.5],
];

describe('labeled metrics', () => {
  it('scrape as the text prom-client writes for the same observations', async () => {
    const theirs = new Registry();
    const counter = new Counter({
      name: 'c_total',
      help: 'Counted.',
      labelNames: ['method', 'route'],
      registers: [theirs],
    });
    const histogram = new Histogram({
      name: 'h_seconds',
      help: 'Timed.',
      labelNames: ['method', 'route'],
      buckets: BUCKETS,
      registers: [theirs],
    });
    const ours = new Registry();
    const labelNames = ['method', 'route'];
    const ourCounter = new LabeledCounter({ name: 'c_total', help: 'Counted.', labelNames, registry: ours });
    const ourHistogram = new LabeledHistogram({
      name: 'h_seconds',
      help: 'Timed.',
      labelNames,
      buckets: BUCKETS,
      registry: ours,
    });
    for (const [method, route, seconds] of OBSERVED) {
      counter.inc({ method, route });
      histogram.observe({ method, route }, seconds);
      ourCounter.inc([method, route]);
      ourHistogram.observe([method, route], seconds);
    }
    counter.inc({ method: 'GET', route: '/api/v3/command' }, 5);
    ourCounter.inc(['GET', '/api/v3/command'], 5);
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain('h_seconds_bucket{le="0.01",method="GET",route="/api/v3/command"} 2');
    expect(text).toContain('c_total{method="GET",route="/api/v3/command"} 8');
    // prom-client's JSON also names each bucket's exemplar (none here).
    const withoutExemplars = JSON.stringify(await theirs.getMetricsAsJSON(), (key, value: unknown) =>
      key === 'exemplar' ? undefined : value,
    );
    expect(await ours.getMetricsAsJSON()).toEqual(JSON.parse(withoutExemplars));
  });

  it('refuse a value that is not a number, as prom-client does', () => {
    const histogram = new LabeledHistogram({
      name: 'h',
      help: 'h',
      labelNames: ['a'],
      buckets: BUCKETS,
      registry: new Registry(),
    });
    expect(() => histogram.observe(['x'], Number.NaN)).toThrow(TypeError);
  });

  it('start again from nothing when reset', async () => {
    const registry = new Registry();
    const counter = new LabeledCounter({ name: 'n_total', help: 'n', labelNames: ['a'], registry });
    counter.inc(['x']);
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain('n_total{');
  });
});
