/**
 * The one validator worker of the page: the schema goes to it once, each request answers with the problems
 * and steps of one text. Results are published per model, so the markers and the flow view share one check.
 */
import type { PipelineSourceKind } from '../../../shared/pipeline';
import type { ToValidator, ValidatedMessage } from './validator-protocol';
import ValidatorWorker from './validator.worker?worker';

type Listener = (result: ValidatedMessage) => void;

let worker: Worker | null = null;
let nextId = 1;
let schemaSent: unknown = null;
const pending = new Map<number, (result: ValidatedMessage) => void>();
const listeners = new Map<string, Set<Listener>>();
const latest = new Map<string, ValidatedMessage>();

function workerOf(): Worker {
  if (!worker) {
    worker = new ValidatorWorker();
    worker.onmessage = (event: MessageEvent<ValidatedMessage>) => {
      const done = pending.get(event.data.id);
      pending.delete(event.data.id);
      done?.(event.data);
    };
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
  const message: ToValidator = { type: 'validate', id, text, kind };
  return new Promise((resolve) => {
    pending.set(id, (result) => {
      latest.set(modelUri, result);
      listeners.get(modelUri)?.forEach((listener) => listener(result));
      resolve(result);
    });
    workerOf().postMessage(message);
  });
}

/** Follows the results of one model (the last one at once, when there is one); returns the unsubscribe. */
export function onValidated(modelUri: string, listener: Listener): () => void {
  let set = listeners.get(modelUri);
  if (!set) listeners.set(modelUri, (set = new Set()));
  set.add(listener);
  const last = latest.get(modelUri);
  if (last) listener(last);
  return () => set.delete(listener);
}
