// The shared validator in a Web Worker: checks the pipeline as the server does, off the main thread.
import { checkExpression } from '../../../shared/commands/core/schema';
import { commandLookupFromSchema, type SchemaCommandLookup } from '../../../shared/commands/schema-contracts';
import { isPipeworkError } from '../../../shared/errors';
import {
  parsePipeline,
  validatePipeline,
  validateScript,
  type PipelineScript,
} from '../../../shared/pipeline';
import { buildFlowGraph } from '../flow/flow-graph';
import { flowStepsOf } from './flow-steps';
import type { ToValidator, ValidatedMessage } from './validator-protocol';

let commands: SchemaCommandLookup | null = null;
let waiting: Extract<ToValidator, { type: 'validate' }> | null = null;

function validate(request: Extract<ToValidator, { type: 'validate' }>, lookup: SchemaCommandLookup): void {
  const started = performance.now();
  let script: PipelineScript | null = null;
  try {
    script = parsePipeline(request.text, request.kind, { positions: 'eager' }); // every step's place is read
  } catch (error) {
    if (!isPipeworkError(error)) throw error;
  }
  const problems = script
    ? validateScript(script, lookup, { checkExpression }, request.kind === 'yaml' ? request.text : undefined)
    : validatePipeline(request.text, request.kind, lookup);
  const steps = script ? flowStepsOf(script, lookup) : null;
  const message: ValidatedMessage = {
    type: 'validated',
    id: request.id,
    problems,
    steps,
    graph: steps && request.flow ? buildFlowGraph(steps) : null,
    millis: performance.now() - started,
  };
  self.postMessage(message);
}

self.onmessage = (event: MessageEvent<ToValidator>) => {
  const message = event.data;
  if (message.type === 'schema') {
    commands = commandLookupFromSchema(message.schema);
    if (waiting) validate(waiting, commands);
    waiting = null;
  } else if (commands) {
    validate(message, commands);
  } else {
    waiting = message;
  }
};
