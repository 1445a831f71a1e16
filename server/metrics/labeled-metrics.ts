/**
 * The counter and histogram every request and run feeds. prom-client's own check their labels, hash them
 * and look them up on each call; these take their label values in order, keep one entry per label set in a
 * Map, and hand the registry the same values prom-client's would (so `/metrics` reads the same) when it is
 * scraped.
 */
import type { Aggregator, Metric, Registry } from 'prom-client';

type Labels = Record<string, string | number>;

/** One value of a scrape, as prom-client's registry formats it. */
interface ScrapedValue {
  labels: Labels;
  sharedLabels?: Labels;
  value: number;
  metricName?: string;
}

interface Scraped {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  values: ScrapedValue[];
  aggregator: Aggregator;
}

interface MetricOptions {
  name: string;
  help: string;
  labelNames: readonly string[];
  registry: Registry;
}

/** What the registry reads of a metric; prom-client formats anything that answers `get()`. */
abstract class ScrapedMetric {
  readonly name: string;
  readonly help: string;
  readonly aggregator: Aggregator = 'sum';
  protected readonly labelNames: readonly string[];

  constructor(options: MetricOptions) {
    this.name = options.name;
    this.help = options.help;
    this.labelNames = options.labelNames;
    options.registry.registerMetric(this as unknown as Metric);
  }

  protected scraped(values: ScrapedValue[]): Promise<Scraped> {
    const { name, help, type, aggregator } = this;
    return Promise.resolve({ name, help, type, values, aggregator });
  }

  /** The label set of values given in `labelNames`' order. */
  protected labelsOf(values: readonly string[]): Labels {
    const labels: Labels = {};
    this.labelNames.forEach((name, i) => (labels[name] = values[i]!));
    return labels;
  }

  abstract readonly type: Scraped['type'];
  abstract get(): Promise<Scraped>;
  abstract reset(): void;
}

/** A counter by label set. */
export class LabeledCounter extends ScrapedMetric {
  readonly type = 'counter';
  private readonly sets = new Map<string, { labels: Labels; value: number }>();

  /** Adds one (or `by`) to the label set of `values`, given in `labelNames`' order. */
  inc(values: readonly string[], by = 1): void {
    const key = values.join('\u0000');
    const set = this.sets.get(key);
    if (set) set.value += by;
    else this.sets.set(key, { labels: this.labelsOf(values), value: by });
  }

  get(): Promise<Scraped> {
    const values = [...this.sets.values()].map(({ labels, value }) => ({ labels: { ...labels }, value }));
    return this.scraped(values);
  }

  reset(): void {
    this.sets.clear();
  }
}

/** A histogram by label set: counts per bucket, sum and count. */
export class LabeledHistogram extends ScrapedMetric {
  readonly type = 'histogram';
  private readonly sets = new Map<
    string,
    { labels: Labels; buckets: Float64Array; sum: number; count: number }
  >();

  private readonly upperBounds: readonly number[];

  constructor(options: MetricOptions & { buckets: readonly number[] }) {
    super(options);
    this.upperBounds = [...options.buckets].sort((a, b) => a - b);
  }

  /** Notes `value` for the label set of `values`, given in `labelNames`' order. */
  observe(values: readonly string[], value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
    const key = values.join('\u0000');
    let set = this.sets.get(key);
    if (!set) {
      set = {
        labels: this.labelsOf(values),
        buckets: new Float64Array(this.upperBounds.length),
        sum: 0,
        count: 0,
      };
      this.sets.set(key, set);
    }
    const bounds = this.upperBounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        set.buckets[i]! += 1;
        break;
      }
    }
    set.sum += value;
    set.count += 1;
  }

  /**
   * What the registry's text is made of, as prom-client's histogram answers it: per label set, the cumulative
   * buckets, +Inf, sum and count, the set's labels beside each line's own.
   */
  getForPromString(): Promise<Scraped> {
    const values: ScrapedValue[] = [];
    const bucket = `${this.name}_bucket`;
    for (const set of this.sets.values()) {
      let cumulative = 0;
      this.upperBounds.forEach((le, i) => {
        cumulative += set.buckets[i]!;
        values.push({
          labels: { le },
          sharedLabels: set.labels,
          value: cumulative,
          metricName: bucket,
        });
      });
      values.push(
        { labels: { le: '+Inf' }, sharedLabels: set.labels, value: set.count, metricName: bucket },
        { labels: {}, sharedLabels: set.labels, value: set.sum, metricName: `${this.name}_sum` },
        { labels: {}, sharedLabels: set.labels, value: set.count, metricName: `${this.name}_count` },
      );
    }
    return this.scraped(values);
  }

  /** The same values with each line's labels and its set's in one (the registry's JSON). */
  async get(): Promise<Scraped> {
    const scraped = await this.getForPromString();
    scraped.values = scraped.values.map(({ labels, sharedLabels, ...rest }) => ({
      ...rest,
      labels: { ...labels, ...sharedLabels },
    }));
    return scraped;
  }

  reset(): void {
    this.sets.clear();
  }
}
