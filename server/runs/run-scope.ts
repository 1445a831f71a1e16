/**
 * What code inside a pipeline run knows of its run: the secret mask, the recorded run's id and how deep it
 * is nested. It travels explicitly, on the services the run's commands get (`services.run`), not through
 * AsyncLocalStorage: on Node 20 one AsyncLocalStorage in use puts a hook on every promise of the process,
 * about a tenth of a small request's time (docs/operations.md, "Run context without async hooks"). The
 * services a run's commands get are made in `run-services.ts`.
 */
import type { SecretMask } from './secret-mask';

export interface RunScope {
  /** The secret values the run used; runs started in place share their top-level run's mask. */
  readonly mask: SecretMask;
  /** The recorded run's id (the parent of the runs it starts); undefined when the history is off. */
  readonly runId: string | undefined;
  /** How many pipelines started one another in place above this one (0 at the top). */
  readonly nesting: number;
}

/**
 * The mask of the run these services belong to. A secret used outside a run is refused: there would be no
 * mask to keep its value out of what the run answers.
 */
export function runMaskOf(services: { run?: RunScope }): SecretMask {
  const mask = services.run?.mask;
  if (!mask) throw new Error('a secret was used outside a pipeline run');
  return mask;
}
