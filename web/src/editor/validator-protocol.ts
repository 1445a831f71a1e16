/** The messages between the editor and its validator worker (`validator.worker.ts`). */
import type { PipelineProblem, PipelineSourceKind } from '../../../shared/pipeline';
import type { FlowGraph } from '../flow/flow-graph';

/** One step as the flow view draws it: where it is, what it is, and a stored pipeline it starts. */
export interface FlowStep {
  index: number;
  command: string;
  line?: number;
  column?: number;
  /** The command's block role (`if`, `if.else`, `foreach`, `finally`, ...), when it has one. */
  role?: string;
  /** A short label of its main value (the default parameter or the condition), cut to a few words. */
  detail?: string;
  /** The stored pipeline's key for `pipeline.start`, `pipeline.run` and `call`. */
  target?: string;
}

export type ToValidator =
  | { type: 'schema'; schema: unknown }
  | { type: 'validate'; id: number; text: string; kind: PipelineSourceKind; flow: boolean };

export interface ValidatedMessage {
  type: 'validated';
  id: number;
  problems: PipelineProblem[];
  /** The steps when the text parses, else null (the flow view keeps what it showed). */
  steps: FlowStep[] | null;
  /** The steps laid out as a graph, when a flow view asked for it and the text parses. */
  graph: FlowGraph | null;
  millis: number;
}
