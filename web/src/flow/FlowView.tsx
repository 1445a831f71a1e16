/**
 * The flow view beside the editor: the pipeline's steps as a graph, kept in step with the text (the graph is
 * built and laid out in the validator worker, so typing never waits for it). A click on a step selects it in
 * the editor; a step that starts a stored pipeline links to it; after a run each step shows its status.
 */
import {
  Background,
  Controls,
  Handle,
  MarkerType,
  Position,
  ReactFlow,
  type Edge,
  type Node,
  type NodeProps,
  type ReactFlowInstance,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { createContext, memo, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { onValidated, revalidate } from '../editor';
import type { RunOutcome } from '../run/run-types';
import type { FlowStep } from '../editor/validator-protocol';
import type { FlowGraph, FlowNode } from './flow-graph';
import { stepStatuses, type StepStatus } from './step-status';
import './flow.css';

export interface FlowViewProps {
  /** The editor model's path (e.g. `untitled.pi.yaml`): the view follows the model whose URI ends with it. */
  path: string;
  /** The last run, when it ran the text shown (its trace gives the statuses). */
  outcome?: RunOutcome;
  onSelectStep(line: number, column: number): void;
  onOpenPipeline(key: string): void;
}

type StepData = { node: FlowNode; status?: StepStatus };

/** A loop's way back leaves its `foreach.end` and enters its `foreach` on the right, around the body. */
const LOOP_OUT = 'loop-out';
const LOOP_IN = 'loop-in';

const Actions = createContext<Pick<FlowViewProps, 'onSelectStep' | 'onOpenPipeline'>>({
  onSelectStep: () => {},
  onOpenPipeline: () => {},
});

function statusText(status: StepStatus | undefined): string {
  if (!status) return '';
  if (status.status === 'skipped') return 'skipped';
  if (status.status === 'not-run') return 'not run';
  const times = status.runs > 1 ? ` ×${status.runs}` : '';
  return `${status.status === 'ok' ? 'ok' : 'failed'} ${Math.round(status.durationMs)} ms${times}`;
}

const StepNode = memo(function StepNode({ data }: NodeProps<Node<StepData>>) {
  const { node, status } = data;
  const { step } = node;
  const actions = useContext(Actions);
  const state = statusText(status);
  const label = `Step ${step.index + 1}: ${step.command}${step.detail ? ` ${step.detail}` : ''}${state ? `, ${state}` : ''}`;
  return (
    <div
      className={`flow-step flow-role-${step.role?.replace('.', '-') ?? 'plain'} flow-status-${status?.status ?? 'none'}`}
      data-step={step.index + 1}
    >
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <button
        type="button"
        className="flow-step-select nodrag"
        aria-label={label}
        onClick={() => step.line !== undefined && actions.onSelectStep(step.line, step.column ?? 1)}
      >
        <span className="flow-step-number">{step.index + 1}</span>
        <span className="flow-step-command">{step.command}</span>
        {state && <span className="flow-step-status">{state}</span>}
        {step.detail && !step.target && <span className="flow-step-detail">{step.detail}</span>}
      </button>
      {step.target && (
        <button
          type="button"
          className="flow-step-link nodrag"
          aria-label={`Open the pipeline ${step.target}`}
          onClick={() => actions.onOpenPipeline(step.target!)}
        >
          ↗ {step.target}
        </button>
      )}
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
      {step.role === 'foreach' && (
        <Handle type="target" id={LOOP_IN} position={Position.Right} isConnectable={false} />
      )}
      {step.role === 'foreach.end' && (
        <Handle type="source" id={LOOP_OUT} position={Position.Right} isConnectable={false} />
      )}
    </div>
  );
});

const NODE_TYPES = { step: StepNode };

function sameStep(a: FlowStep, b: FlowStep): boolean {
  return (
    a.index === b.index &&
    a.command === b.command &&
    a.line === b.line &&
    a.column === b.column &&
    a.role === b.role &&
    a.detail === b.detail &&
    a.target === b.target
  );
}

/**
 * The graph's nodes for React Flow; a node unchanged since the last drawing keeps its object, so that a
 * keystroke in one step redraws that step, not all of them.
 */
function toNodes(graph: FlowGraph, previous: Map<string, Node<StepData>>): Node<StepData>[] {
  return graph.nodes.map((node) => {
    const before = previous.get(node.id);
    if (
      before &&
      before.position.x === node.x &&
      before.position.y === node.y &&
      before.height === node.height &&
      sameStep(before.data.node.step, node.step)
    )
      return before;
    return {
      id: node.id,
      type: 'step',
      position: { x: node.x, y: node.y },
      width: node.width,
      height: node.height,
      // The size is known: a node drawn again keeps the handles React Flow measured, so its edges stay drawn
      // and it is not measured again (a step whose size changes is measured by React Flow's resize observer).
      // Without it every moved node would lose its edges until measured: a keystroke that changes a step's
      // height moved all the steps below it and redrew their edges from scratch.
      measured: { width: node.width, height: node.height },
      data: { node },
      draggable: false,
      connectable: false,
      selectable: false,
      // The button inside takes the focus and the label.
      focusable: false,
    };
  });
}

interface Drawn {
  nodes: Node<StepData>[];
  edges: Edge[];
}

/** A new graph drawn over the last one, keeping what did not change. */
function redraw(graph: FlowGraph, previous: Drawn | null): Drawn {
  const edges = toEdges(graph, new Map(previous?.edges.map((edge) => [edge.id, edge])));
  return {
    nodes: toNodes(graph, new Map(previous?.nodes.map((node) => [node.id, node]))),
    // The same edges keep their array, so React Flow does not index them all again.
    edges: previous && sameItems(edges, previous.edges) ? previous.edges : edges,
  };
}

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

/** The graph's edges for React Flow; an unchanged edge keeps its object (see `toNodes`). */
function toEdges(graph: FlowGraph, previous: Map<string, Edge>): Edge[] {
  return graph.edges.map((edge) => {
    const before = previous.get(edge.id);
    return before && before.label === edge.label ? before : edgeOf(edge);
  });
}

function edgeOf(edge: FlowGraph['edges'][number]): Edge {
  return {
    id: edge.id,
    source: edge.source,
    target: edge.target,
    label: edge.label,
    type: edge.back ? 'smoothstep' : 'default',
    ...(edge.back ? { sourceHandle: LOOP_OUT, targetHandle: LOOP_IN } : {}),
    animated: edge.back,
    markerEnd: { type: MarkerType.ArrowClosed },
    focusable: false,
    // Edges take no pointer events (flow.css): no invisible wide path to catch them.
    interactionWidth: 0,
    className: edge.back ? 'flow-edge-back' : undefined,
  };
}

export function FlowView(props: FlowViewProps) {
  const { path, outcome, onSelectStep, onOpenPipeline } = props;
  const [drawn, setDrawn] = useState<Drawn | null>(null);
  const [broken, setBroken] = useState(false);

  useEffect(() => {
    const match = (uri: string) => uri.endsWith(`/${path}`) || uri === path;
    const stop = onValidated(
      match,
      (result) => {
        setBroken(result.graph === null && result.steps === null);
        const graph = result.graph;
        if (graph) setDrawn((previous) => redraw(graph, previous));
      },
      true,
    );
    revalidate(match);
    return stop;
  }, [path]);

  const statuses = useMemo(
    () =>
      stepStatuses(
        outcome,
        drawn?.nodes.map((node) => node.data.node.step),
      ),
    [outcome, drawn],
  );
  const nodes = useMemo(
    () =>
      (drawn?.nodes ?? []).map((node) => {
        const status = statuses.get(node.data.node.step.index);
        return status ? { ...node, data: { ...node.data, status } } : node;
      }),
    [drawn, statuses],
  );
  const edges = drawn?.edges ?? [];
  const actions = useMemo(() => ({ onSelectStep, onOpenPipeline }), [onSelectStep, onOpenPipeline]);

  // The graph is fitted again when its panel changes size (the window, a splitter), or part of it is cut off.
  const box = useRef<HTMLElement>(null);
  const flow = useRef<ReactFlowInstance<Node<StepData>> | null>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(() => void flow.current?.fitView());
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  return (
    <section ref={box} className="flow-view" aria-label="Flow view" data-testid="flow-view">
      {broken && (
        <p className="flow-stale" role="status">
          The text does not parse: the flow shows the last version that did.
        </p>
      )}
      <Actions.Provider value={actions}>
        <ReactFlow
          // Fitted to the view when the number of steps changes (fitView acts when React Flow mounts).
          key={nodes.length}
          nodes={nodes}
          edges={edges}
          nodeTypes={NODE_TYPES}
          nodesDraggable={false}
          nodesConnectable={false}
          elementsSelectable={false}
          fitView
          onInit={(instance) => {
            flow.current = instance;
          }}
          minZoom={0.1}
          proOptions={{ hideAttribution: true }}
          aria-label="Pipeline steps as a graph"
        >
          <Background gap={24} />
          <Controls showInteractive={false} />
        </ReactFlow>
      </Actions.Provider>
    </section>
  );
}
