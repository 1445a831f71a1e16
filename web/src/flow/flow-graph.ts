/**
 * A pipeline's steps as a graph: one node per step, edges for the sequence and the blocks (`if`/`if.else`,
 * `foreach`, `finally`), laid out top to bottom with dagre. DOM-free, so the validator worker builds it while
 * the main thread only draws. Every node has the same size, so the layout depends on the structure alone (how
 * many steps, which edges): a keystroke that changes a command or a detail moves no step, and the last layout
 * is reused without running dagre again.
 */
import dagre from '@dagrejs/dagre';
import type { FlowStep } from '../editor/validator-protocol';

export interface FlowNode {
  id: string;
  step: FlowStep;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface FlowEdge {
  id: string;
  source: string;
  target: string;
  label?: string;
  /** A loop's way back to its `foreach`. */
  back?: boolean;
}

export interface FlowGraph {
  nodes: FlowNode[];
  edges: FlowEdge[];
}

export const NODE_WIDTH = 220;
/** Room for the command and a detail or a link (and a run's status); one height for all, see above. */
export const NODE_HEIGHT = 60;

interface Block {
  role: 'if' | 'foreach';
  at: number;
  else?: number;
  end?: number;
}

/** Matches the blocks as the runner does; a block left open runs to the end of the pipeline. */
function matchBlocks(steps: readonly FlowStep[]): Map<number, Block> {
  const blocks = new Map<number, Block>();
  const open: Block[] = [];
  steps.forEach((step, i) => {
    if (step.role === 'if' || step.role === 'foreach') {
      const block: Block = { role: step.role, at: i };
      open.push(block);
      blocks.set(i, block);
      return;
    }
    const kind = step.role === 'foreach.end' ? 'foreach' : step.role?.startsWith('if.') ? 'if' : null;
    const top = open[open.length - 1];
    if (!kind || top?.role !== kind) return;
    if (step.role === 'if.else') top.else ??= i;
    else {
      top.end = i;
      open.pop();
    }
  });
  return blocks;
}

/** The edges: each step to the next, turned by the blocks. */
export function flowEdges(steps: readonly FlowStep[]): FlowEdge[] {
  const edges: FlowEdge[] = [];
  const add = (from: number, to: number, label?: string, back?: boolean) => {
    if (to >= steps.length || from === to) return;
    edges.push({ id: `e${from}-${to}${back ? 'b' : ''}`, source: `s${from}`, target: `s${to}`, label, back });
  };
  const blocks = matchBlocks(steps);
  /** Steps whose plain "next" edge a block replaced. */
  const noNext = new Set<number>();
  for (const block of blocks.values()) {
    const end = block.end ?? steps.length;
    if (block.role === 'if') {
      noNext.add(block.at);
      if (block.else !== undefined) {
        // The else-branch starts at the `if.else` step (drawn in the branch, not apart from the graph); an
        // empty then-branch goes straight to the end, a full one jumps over the else-branch to it.
        add(block.at, block.else === block.at + 1 ? end : block.at + 1, 'then');
        add(block.at, block.else, 'else');
        if (block.else - 1 !== block.at) {
          noNext.add(block.else - 1);
          add(block.else - 1, end, undefined);
        }
      } else {
        add(block.at, block.at + 1, 'then');
        if (end !== block.at + 1) add(block.at, end, 'else');
      }
    } else {
      noNext.add(block.at);
      add(block.at, block.at + 1, 'each');
      if (block.end !== undefined) {
        add(block.end, block.at, 'next', true);
        noNext.add(block.end);
        add(block.end, block.end + 1, 'done');
      }
    }
  }
  steps.forEach((step, i) => {
    if (!noNext.has(i) && step.role !== 'exit') add(i, i + 1);
  });
  return edges;
}

/** What the layout depends on: the number of steps and the edges that rank them. */
function structureOf(steps: readonly FlowStep[], edges: readonly FlowEdge[]): string {
  const ranked = edges.filter((edge) => !edge.back).map((edge) => `${edge.source}>${edge.target}`);
  return `${steps.length}|${ranked.join(',')}`;
}

/** Top-left corners of the nodes `s0`, `s1`, ... as dagre lays them out. */
function layOut(steps: readonly FlowStep[], edges: readonly FlowEdge[]): { x: number; y: number }[] {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'TB', nodesep: 30, ranksep: 36, marginx: 16, marginy: 16 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const step of steps) g.setNode(`s${step.index}`, { width: NODE_WIDTH, height: NODE_HEIGHT });
  // The way back of a loop does not rank the nodes, or the loop's body would be laid out upside down.
  for (const edge of edges) if (!edge.back) g.setEdge(edge.source, edge.target);
  dagre.layout(g);
  return steps.map((step) => {
    const laid = g.node(`s${step.index}`);
    return { x: laid.x - NODE_WIDTH / 2, y: laid.y - NODE_HEIGHT / 2 };
  });
}

/** The last layout, reused while the structure stays (typing in a step changes its text, not the graph). */
let lastLayout: { structure: string; positions: { x: number; y: number }[] } | undefined;

/** The steps laid out: node positions (top-left corners) and edges. */
export function buildFlowGraph(steps: readonly FlowStep[]): FlowGraph {
  const edges = flowEdges(steps);
  const structure = structureOf(steps, edges);
  if (lastLayout?.structure !== structure) lastLayout = { structure, positions: layOut(steps, edges) };
  const { positions } = lastLayout;
  const nodes = steps.map((step, i) => ({
    id: `s${step.index}`,
    step,
    x: positions[i]!.x,
    y: positions[i]!.y,
    width: NODE_WIDTH,
    height: NODE_HEIGHT,
  }));
  return { nodes, edges };
}
