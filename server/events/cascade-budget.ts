/**
 * The budget of a listener cascade: every event.listen run caused, directly or through other listener runs,
 * by one originating write belongs to that write's cascade (its id travels with the events, through the
 * PostgreSQL outbox too: `event-context.ts`). A cascade may go `maxDepth` listener levels deep and start
 * `maxRuns` listener runs in all; past either, further runs are refused and logged with the listener's key,
 * so a listener that writes what it listens to (fan-out 30: 27,931 writes from one) stops at the budget.
 * The counts live in this process: with several instances on PostgreSQL each instance counts the runs it
 * makes, so an installation's cascade may start at most `maxRuns` per instance.
 */
import { positiveIntFrom } from '../config-env';
import { PipeworkError } from '../../shared/errors';
import type { Logger } from '../logging/logger';
import type { PipeworkEvent } from './event-bus';
import type { EventOrigin } from './event-context';

export interface CascadeLimits {
  /** Listener levels one write may cause (`PIPEWORK_EVENT_CASCADE_DEPTH`, default 3). */
  maxDepth: number;
  /** Listener runs one write may cause in all (`PIPEWORK_EVENT_CASCADE_RUNS`, default 100). */
  maxRuns: number;
}

export function loadCascadeLimits(env: NodeJS.ProcessEnv): CascadeLimits {
  return {
    maxDepth: positiveIntFrom(env, 'PIPEWORK_EVENT_CASCADE_DEPTH', 3),
    maxRuns: positiveIntFrom(env, 'PIPEWORK_EVENT_CASCADE_RUNS', 100),
  };
}

export const DEFAULT_CASCADE_LIMITS: CascadeLimits = loadCascadeLimits({});

/** Cascades kept at most; past it the ones untouched longest are forgotten first. */
const MAX_TRACKED = 10_000;
/** A cascade untouched this long is forgotten (its listeners are long done). */
const FORGET_AFTER_MS = 10 * 60_000;

/** The cascade an event belongs to: the one it was written in, or its own when a request wrote it. */
export function cascadeOf(event: PipeworkEvent): string {
  return event.cascade ?? `event-${event.id}`;
}

/** A refusal is `first` once per cascade and limit (log it as an error; the later ones of the same quietly). */
export type CascadeAdmission =
  { ok: true; origin: EventOrigin } | { ok: false; error: PipeworkError; first: boolean };

export class CascadeBudget {
  /** Runs started per cascade, in the order they were last touched. */
  private readonly runs = new Map<string, { runs: number; refused: Set<string>; touched: number }>();

  constructor(
    readonly limits: CascadeLimits = DEFAULT_CASCADE_LIMITS,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Whether a listener may run for the event; when it may, the run is counted and its origin returned. */
  admit(event: PipeworkEvent, listenerKey: string): CascadeAdmission {
    const cascade = cascadeOf(event);
    const depth = event.depth + 1;
    const { maxDepth, maxRuns } = this.limits;
    const now = this.clock();
    const entry = this.runs.get(cascade) ?? { runs: 0, refused: new Set<string>(), touched: now };
    this.runs.delete(cascade);
    this.runs.set(cascade, entry);
    entry.touched = now;
    this.forgetOld(now);
    if (depth > maxDepth) {
      return this.refuse(
        entry,
        `The event listener '${listenerKey}' was not run: it would be listener level ${depth} of one write, past the limit of ${maxDepth} (does a listener write what it listens to?).`,
        { limit: 'cascade-depth', pipeline: listenerKey, cascade, depth, maxDepth },
      );
    }
    if (entry.runs >= maxRuns) {
      return this.refuse(
        entry,
        `The event listener '${listenerKey}' was not run: one write already caused ${entry.runs} listener runs, the limit of its cascade (does a listener write what it listens to?).`,
        { limit: 'cascade-runs', pipeline: listenerKey, cascade, depth, maxRuns },
      );
    }
    entry.runs += 1;
    return { ok: true, origin: { depth, cascade } };
  }

  /** Listener runs counted for a cascade so far (tests). */
  runsOf(cascade: string): number {
    return this.runs.get(cascade)?.runs ?? 0;
  }

  private refuse(
    entry: { refused: Set<string> },
    message: string,
    details: { limit: string } & Record<string, unknown>,
  ): CascadeAdmission {
    const first = !entry.refused.has(details.limit);
    entry.refused.add(details.limit);
    return { ok: false, error: new PipeworkError('LIMIT_EXCEEDED', message, details), first };
  }

  private forgetOld(now: number): void {
    for (const [cascade, entry] of this.runs) {
      if (this.runs.size <= MAX_TRACKED && now - entry.touched < FORGET_AFTER_MS) return;
      this.runs.delete(cascade);
    }
  }
}

/** Logs a refused listener run: an error with the catalogued code the first time in a cascade, then quietly. */
export function logCascadeRefusal(
  logger: Pick<Logger, 'error' | 'debug'>,
  refusal: Extract<CascadeAdmission, { ok: false }>,
  where: Record<string, unknown>,
): void {
  const { error } = refusal;
  const fields = { ...where, code: error.code, ...error.details };
  if (refusal.first) logger.error(fields, error.message);
  else logger.debug(fields, error.message);
}
