/**
 * The instance's measurements in Prometheus' text format (`GET /metrics`, docs/runs.md): runs by pipeline,
 * trigger and status, run and step durations, the async queue, HTTP requests, the database pool, event lag,
 * and the process's own (event loop lag, memory). One registry per instance, so tests can run several.
 */
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import {
  STORED_PIPELINE_PATTERN,
  debugRun,
  eventStream,
  healthz,
  metrics as metricsScrape,
  readyz,
} from '../../shared/api';
import type { RunDetail } from '../runs/run-records';
import { LabeledCounter, LabeledHistogram } from './labeled-metrics';

/** Seconds: from a millisecond step to the longest run. */
const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300];

/** What the gauges read when scraped. */
export interface MetricSources {
  asyncQueueDepth(): number;
  /** The PostgreSQL pool's connections, when on PostgreSQL. */
  pool(): { total: number; idle: number; waiting: number } | null;
}

export class Metrics {
  readonly registry = new Registry();
  // Fed on every request and run: label values in order (`labeled-metrics.ts`).
  private readonly runs: LabeledCounter;
  private readonly runSeconds: LabeledHistogram;
  private readonly stepSeconds: LabeledHistogram;
  private readonly requests: LabeledCounter;
  private readonly requestSeconds: LabeledHistogram;
  private readonly eventLag: Histogram;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    const registry = this.registry;
    collectDefaultMetrics({ register: this.registry, prefix: 'pipework_' });
    this.runs = new LabeledCounter({
      name: 'pipework_runs_total',
      help: 'Finished pipeline runs by pipeline (key, or "inline"), trigger and status.',
      labelNames: ['pipeline', 'trigger', 'status'],
      registry,
    });
    this.runSeconds = new LabeledHistogram({
      name: 'pipework_run_duration_seconds',
      help: 'Duration of finished pipeline runs.',
      labelNames: ['pipeline', 'trigger'],
      buckets: DURATION_BUCKETS,
      registry,
    });
    this.stepSeconds = new LabeledHistogram({
      name: 'pipework_step_duration_seconds',
      help: 'Duration of steps, from the runs whose steps were recorded (sampled and failed runs).',
      labelNames: ['command'],
      buckets: DURATION_BUCKETS,
      registry,
    });
    new Gauge({
      name: 'pipework_async_queue_depth',
      help: 'Async runs waiting on this instance.',
      registers,
      collect() {
        this.set(sources.asyncQueueDepth());
      },
    });
    this.requests = new LabeledCounter({
      name: 'pipework_http_requests_total',
      help: 'HTTP requests by method, route and status.',
      labelNames: ['method', 'route', 'status'],
      registry,
    });
    this.requestSeconds = new LabeledHistogram({
      name: 'pipework_http_request_duration_seconds',
      help: 'Duration of HTTP requests by route.',
      labelNames: ['route'],
      buckets: DURATION_BUCKETS,
      registry,
    });
    new Gauge({
      name: 'pipework_db_pool_connections',
      help: 'PostgreSQL pool connections by state (absent on SQLite).',
      labelNames: ['state'],
      registers,
      collect() {
        const pool = sources.pool();
        if (!pool) return;
        this.set({ state: 'total' }, pool.total);
        this.set({ state: 'idle' }, pool.idle);
        this.set({ state: 'waiting' }, pool.waiting);
      },
    });
    this.eventLag = new Histogram({
      name: 'pipework_event_lag_seconds',
      help: 'From an event being written to its delivery to this instance’s listeners.',
      buckets: DURATION_BUCKETS,
      registers,
    });
  }

  /** A finished run (the run recorder's listener). */
  observeRun(run: RunDetail): void {
    const pipeline = run.pipelineKey ?? 'inline';
    this.runs.inc([pipeline, run.trigger.kind, run.status]);
    if (run.durationMs !== null) {
      this.runSeconds.observe([pipeline, run.trigger.kind], run.durationMs / 1000);
    }
    for (const step of run.steps ?? []) this.stepSeconds.observe([step.command], step.durationMs / 1000);
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.inc([method, route, String(status)]);
    this.requestSeconds.observe([route], seconds);
  }

  observeEvent(timestamp: number): void {
    this.eventLag.observe(Math.max(0, Date.now() - timestamp) / 1000);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/** The route label of a path: a few known shapes, so the label's values stay few. */
export function routeOf(path: string): string {
  if (path.startsWith('/api/v3/command')) return '/api/v3/command';
  if (path === debugRun.path) return path;
  if (STORED_PIPELINE_PATTERN.test(path)) return '/api/v3/pipeline:<key>';
  if (path === '/api/v3/pipeline') return path;
  if (path.startsWith('/api/v3/runs')) return '/api/v3/runs';
  if (path.startsWith(eventStream.path)) return eventStream.path;
  if (path.startsWith('/api/')) return '/api/other';
  if (path.startsWith('/auth/')) return '/auth';
  if (path === metricsScrape.path || path === healthz.path || path === readyz.path) return path;
  return 'other';
}
