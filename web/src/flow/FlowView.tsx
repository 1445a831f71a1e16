/**
 * The flow view beside the editor: the pipeline's steps as a graph, kept in step with the text (the graph is
 * built and laid out in the validator worker, so typing never waits for it). A click on a step selects it in
 * the editor; a step that starts a stored pipeline links to it; after a run each step shows its status.
 * Only the steps in view are drawn, and the graph stays mounted as steps come and go, so the view the user
 * chose (and the focus) is kept.
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
  type NodeHandle,
  type NodeProps,
  type ReactFlowInstance,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { createContext, memo, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { onCursorLine, onValidated, revalidate } from '../editor';
import type { RunOutcome } from '../run/run-types';
import type { FlowStep } from '../editor/validator-protocol';
import { NODE_HEIGHT, NODE_WIDTH, type FlowGraph, type FlowNode } from './flow-graph';
import { boundsOf, inView, shownViewport, stepAtLine } from './flow-viewport';
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

/** The size of React Flow's handle dot, centred on the node's border. */
const DOT = 6;
const handle = (type: 'source' | 'target', position: Position, id: string | null): NodeHandle => {
  const x = position === Position.Right ? NODE_WIDTH : NODE_WIDTH / 2;
  const y = position === Position.Top ? 0 : position === Position.Bottom ? NODE_HEIGHT : NODE_HEIGHT / 2;
  return { id, type, position, x: x - DOT / 2, y: y - DOT / 2, width: DOT, height: DOT };
};
/**
 * Every step's handles, where StepNode draws them (all nodes have one size). Declared, React Flow draws the
 * edges of a step it has not drawn (out of view) and measures no handle in the DOM. The plain ones first: an
 * edge without a handle id takes the first.
 */
const PLAIN_HANDLES = [handle('source', Position.Bottom, null), handle('target', Position.Top, null)];
const LOOP_HANDLES = {
  foreach: [...PLAIN_HANDLES, handle('target', Position.Right, LOOP_IN)],
  'foreach.end': [...PLAIN_HANDLES, handle('source', Position.Right, LOOP_OUT)],
};

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
      handles: LOOP_HANDLES[node.step.role as keyof typeof LOOP_HANDLES] ?? PLAIN_HANDLES,
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

type Instance = ReactFlowInstance<Node<StepData>>;

/** The view shown on its own (see flow-viewport.ts), for the graph drawn in the panel `box`. */
function showGraph(flow: Instance | null, box: HTMLElement | null, nodes: readonly FlowNode[]): boolean {
  const bounds = boundsOf(nodes);
  if (!flow || !box || !bounds || box.clientWidth === 0 || box.clientHeight === 0) return false;
  void flow.setViewport(shownViewport(bounds, box.clientWidth, box.clientHeight));
  return true;
}

/** Centres `node` at the current zoom when it is not wholly in view (as the editor reveals a line). */
function reveal(flow: Instance | null, box: HTMLElement | null, node: FlowNode): void {
  if (!flow || !box || box.clientWidth === 0) return;
  const view = flow.getViewport();
  if (inView(node, view, box.clientWidth, box.clientHeight)) return;
  void flow.setCenter(node.x + node.width / 2, node.y + node.height / 2, { zoom: view.zoom });
}

/**
 * Memoized: the editor's text changes on each keystroke and re-renders its parent; the flow view follows the
 * validator's answers instead, so the keystroke's own task does not render the graph as well.
 */
export const FlowView = memo(function FlowView(props: FlowViewProps) {
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

  // The view is placed by us (flow-viewport.ts) until the user pans or zooms; from then on it stays where they
  // put it, also when steps are added or removed (the graph is updated in place, never mounted again).
  const box = useRef<HTMLElement>(null);
  const flow = useRef<ReactFlowInstance<Node<StepData>> | null>(null);
  const userMoved = useRef(false);
  const shownFor = useRef(-1);
  const graphNodes = useRef<FlowNode[]>([]);
  graphNodes.current = drawn?.nodes.map((node) => node.data.node) ?? [];
  // The step at the editor's cursor is brought into view when the cursor enters another step (not on each
  // keystroke within one, so a view the user moved away stays while they type).
  const cursorLine = useRef<number | null>(null);
  const revealed = useRef<string | null>(null);
  const followCursor = useCallback((always: boolean) => {
    const at = cursorLine.current === null ? null : stepAtLine(graphNodes.current, cursorLine.current);
    if (!at || (!always && at.id === revealed.current)) return;
    revealed.current = at.id;
    reveal(flow.current, box.current, at);
  }, []);
  const showOnOwn = useCallback(() => {
    if (userMoved.current || !showGraph(flow.current, box.current, graphNodes.current)) return;
    shownFor.current = graphNodes.current.length;
    followCursor(true);
  }, [followCursor]);
  useEffect(() => {
    const match = (uri: string) => uri.endsWith(`/${path}`) || uri === path;
    return onCursorLine(match, (line) => {
      cursorLine.current = line;
      followCursor(false);
    });
  }, [path, followCursor]);
  // A new number of steps (the first graph, a step added or removed): shown again, unless the user moved.
  useEffect(() => {
    if (nodes.length !== shownFor.current) showOnOwn();
    else followCursor(false);
  }, [nodes, showOnOwn, followCursor]);
  // The panel changes size (the window, a splitter).
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(showOnOwn);
    observer.observe(element);
    return () => observer.disconnect();
  }, [showOnOwn]);
  const movedByUser = useCallback(() => {
    userMoved.current = true;
  }, []);

  return (
    <section
      ref={box}
      className="flow-view"
      aria-label="Flow view"
      data-testid="flow-view"
      // How many steps the graph has (only those in view are in the DOM).
      data-steps={nodes.length}
    >
      {broken && (
        <p className="flow-stale" role="status">
          The text does not parse: the flow shows the last version that did.
        </p>
      )}
      <Actions.Provider value={actions}>
        <ReactFlow
          nodes={nodes}
          edges={edges}
          nodeTypes={NODE_TYPES}
          nodesDraggable={false}
          nodesConnectable={false}
          elementsSelectable={false}
          // Steps and edges out of view are not in the DOM: a keystroke redraws, lays out and paints the
          // twenty or so in view, not all 200 of a long pipeline.
          onlyRenderVisibleElements
          onInit={(instance) => {
            flow.current = instance;
            showOnOwn();
          }}
          // A move with an event is the user's (a drag, the wheel); ours (setViewport) has none.
          onMoveStart={(event) => {
            if (event) movedByUser();
          }}
          minZoom={0.1}
          proOptions={{ hideAttribution: true }}
          aria-label="Pipeline steps as a graph"
        >
          <Background gap={24} />
          <Controls
            showInteractive={false}
            onZoomIn={movedByUser}
            onZoomOut={movedByUser}
            // "Fit view" shows the whole graph, however small.
            onFitView={movedByUser}
          />
        </ReactFlow>
      </Actions.Provider>
    </section>
  );
});
