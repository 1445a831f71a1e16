import { describe, expect, it } from 'vitest';
import type { FlowStep } from '../editor/validator-protocol';
import type { RunOutcome } from '../run/run-types';
import { buildFlowGraph, flowEdges, NODE_HEIGHT } from './flow-graph';
import { stepStatuses } from './step-status';

function steps(...specs: (string | [string, string])[]): FlowStep[] {
  return specs.map((spec, index) => {
    const [command, role] = typeof spec === 'string' ? [spec, undefined] : spec;
    return { index, command, ...(role ? { role } : {}) };
  });
}

const IF_ELSE = steps(['if', 'if'], 'log', ['if.else', 'if.else'], 'log', ['if.end', 'if.end'], 'set.body');

describe('flowEdges', () => {
  it('draws the else-branch from its if.else step and the then-branch past it', () => {
    const edges = flowEdges(IF_ELSE).map((e) => `${e.source}>${e.target}${e.label ? ` ${e.label}` : ''}`);
    expect(edges.sort()).toEqual(['s0>s1 then', 's0>s2 else', 's1>s4', 's2>s3', 's3>s4', 's4>s5'].sort());
  });

  it('sends an empty then-branch straight to the end', () => {
    const edges = flowEdges(steps(['if', 'if'], ['if.else', 'if.else'], 'log', ['if.end', 'if.end']));
    expect(edges.map((e) => `${e.source}>${e.target} ${e.label ?? ''}`.trim()).sort()).toEqual(
      ['s0>s3 then', 's0>s1 else', 's1>s2', 's2>s3'].sort(),
    );
  });
});

describe('buildFlowGraph', () => {
  const positions = (graph: ReturnType<typeof buildFlowGraph>) => graph.nodes.map((n) => [n.id, n.x, n.y]);

  it('moves no step when a step only changes its command or detail', () => {
    const before = buildFlowGraph(IF_ELSE);
    const typed = IF_ELSE.map((step, i) =>
      i === 1 ? { ...step, command: 'logx', detail: 'a detail' } : step,
    );
    const after = buildFlowGraph(typed);
    expect(positions(after)).toEqual(positions(before));
    expect(after.nodes[1]!.step.command).toBe('logx');
    expect(new Set(after.nodes.map((n) => n.height))).toEqual(new Set([NODE_HEIGHT]));
  });

  it('lays the steps out again when the structure changes, and back', () => {
    const blocks = buildFlowGraph(IF_ELSE);
    const plain = buildFlowGraph(steps('log', 'log', 'log', 'log', 'log', 'log'));
    // A plain sequence is one column, the if/else block puts its branches side by side.
    expect(new Set(plain.nodes.map((n) => n.x)).size).toBe(1);
    expect(new Set(blocks.nodes.map((n) => n.x)).size).toBeGreaterThan(1);
    expect(positions(buildFlowGraph(IF_ELSE))).toEqual(positions(blocks));
    const longer = buildFlowGraph(steps('log', 'log', 'log', 'log', 'log', 'log', 'log'));
    expect(longer.nodes.at(-1)!.y).toBeGreaterThan(plain.nodes.at(-1)!.y);
  });
});

describe('stepStatuses', () => {
  const outcome = {
    ok: true,
    fromStep: 0,
    trace: [
      { index: 0, command: 'if', durationMs: 1, logs: [] },
      { index: 1, command: 'log', durationMs: 2, logs: [] },
      { index: 5, command: 'set.body', durationMs: 3, logs: [] },
    ],
  } as unknown as RunOutcome;

  it('marks steps the run passed by as not run, and leaves the block markers without status', () => {
    const statuses = stepStatuses(outcome, IF_ELSE);
    expect(statuses.get(1)).toEqual({ status: 'ok', durationMs: 2, runs: 1 });
    expect(statuses.get(3)?.status).toBe('not-run');
    expect(statuses.has(2)).toBe(false);
    expect(statuses.has(4)).toBe(false);
  });
});
