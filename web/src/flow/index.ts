/** The flow view feature: a pipeline's steps as a graph beside the text. */
export { FlowView, type FlowViewProps } from './FlowView';
export { buildFlowGraph, flowEdges, type FlowEdge, type FlowGraph, type FlowNode } from './flow-graph';
export { stepStatuses, type StepStatus } from './step-status';
