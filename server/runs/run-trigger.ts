/** How a run was started: every way a pipeline starts is one of these (one run model, docs/runs.md). */
export { RUN_TRIGGER_KINDS, type RunTrigger, type RunTriggerKind } from '../../shared/runs/run-wire';
