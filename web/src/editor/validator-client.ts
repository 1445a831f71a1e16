/**
 * The one validator worker of the page: the schema goes to it once, each request answers with the problems
 * and steps of one text. Results are published per model, so the markers and the flow view share one check.
 */
import type { PipelineSourceKind } from '../../../shared/pipeline';
import type { ToValidator, ValidatedMessage } from './validator-protocol';
import ValidatorWorker from './validator.worker?worker';

type Listener = (result: ValidatedMessage) => void;
type Match = (modelUri: string) => boolean;

let worker: Worker | null = null;
let nextId = 1;
let schemaSent: unknown = null;
const pending = new Map<number, (result: ValidatedMessage) => void>();
const listeners = new Set<{ match: Match; listener: Listener }>();
const latest = new Map<string, ValidatedMessage>();
/** Each validation asks the worker for the laid-out graph only while a flow view follows it. */
let flowViews = 0;

function workerOf(): Worker {
  if (!worker) {
    worker = new ValidatorWorker();
    worker.onmessage = (event: MessageEvent<ValidatedMessage>) => {
      const done = pending.get(event.data.id);
      pending.delete(event.data.id);
      done?.(event.data);
    };
    // A fault in the worker must not leave the markers silently stale: it is reported like any other.
    worker.onerror = (event) => console.error('The pipeline validator failed:', event.message);
  }
  return worker;
}

/** Gives the worker the command contracts (the pipeline schema); the same schema only once. */
export function setValidatorSchema(schema: unknown): void {
  if (schema === schemaSent) return;
  schemaSent = schema;
  const message: ToValidator = { type: 'schema', schema };
  workerOf().postMessage(message);
}

/** Validates one text in the worker; the answer is also published to the model's listeners. */
export function validateInWorker(
  modelUri: string,
  text: string,
  kind: PipelineSourceKind,
): Promise<ValidatedMessage> {
  const id = nextId++;
  const message: ToValidator = { type: 'validate', id, text, kind, flow: flowViews > 0 };
  return new Promise((resolve) => {
    pending.set(id, (result) => {
      latest.set(modelUri, result);
      for (const { match, listener } of listeners) if (match(modelUri)) listener(result);
      resolve(result);
    });
    workerOf().postMessage(message);
  });
}

/**
 * Follows the results of the models `match` accepts (the last one at once, when there is one); a flow view
 * (`flow`) also gets the laid-out graph from then on. Returns the unsubscribe.
 */
export function onValidated(match: Match, listener: Listener, flow = false): () => void {
  const entry = { match, listener };
  listeners.add(entry);
  if (flow) flowViews++;
  for (const [uri, result] of latest) if (match(uri)) listener(result);
  return () => {
    if (listeners.delete(entry) && flow) flowViews--;
  };
}

/** Asks again for the last text of the models `match` accepts (e.g. when a flow view opens). */
export function revalidate(match: Match): void {
  // By the registered models, not by the results so far: the first answer may still be on its way (the worker
  // waits for the schema), asked for without the graph.
  for (const [uri, again] of revalidators) if (match(uri)) again();
}

const revalidators = new Map<string, () => void>();

/**
 * The markers register how to check their model again, for `revalidate`, and withdraw it when they stop: only
 * their own, since a new tracker of the same model may have registered meanwhile (an editor mounted again).
 */
export function registerRevalidator(modelUri: string, again: () => void): () => void {
  revalidators.set(modelUri, again);
  return () => {
    if (revalidators.get(modelUri) === again) revalidators.delete(modelUri);
  };
}
