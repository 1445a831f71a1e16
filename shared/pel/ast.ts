/** The PEL syntax tree: every node kind in one discriminated union, with its place in the source. */
import type { BinaryOperator, UnaryOperator } from './operators';

interface Span {
  /** 0-based offset of the first character, in the text that was parsed (template or expression). */
  start: number;
  /** 0-based offset after the last character. */
  end: number;
}

export type LiteralValue = null | boolean | number | string;

export type SelectionKind = 'all' | 'first' | 'last';

export type PelNode =
  | (Span & {
      type: 'Literal';
      value: LiteralValue;
      /** written with a dot, an exponent or d/f */ decimal: boolean;
    })
  | (Span & { type: 'Identifier'; name: string })
  | (Span & { type: 'Variable'; name: string }) // #name; #this and #root included
  | (Span & { type: 'Utility'; name: string }) // @name, only as the receiver of a call
  | (Span & { type: 'Property'; object: PelNode; name: string; safe: boolean; nameStart: number })
  | (Span & { type: 'Index'; object: PelNode; index: PelNode; safe: boolean })
  | (Span & {
      type: 'Call';
      object: PelNode | null;
      name: string;
      args: PelNode[];
      safe: boolean;
      nameStart: number;
    })
  | (Span & { type: 'Selection'; object: PelNode; kind: SelectionKind; predicate: PelNode; safe: boolean })
  | (Span & { type: 'Projection'; object: PelNode; mapper: PelNode; safe: boolean })
  | (Span & { type: 'Unary'; operator: UnaryOperator; operand: PelNode })
  | (Span & {
      type: 'Binary';
      operator: BinaryOperator;
      left: PelNode;
      right: PelNode;
      operatorStart: number;
    })
  | (Span & { type: 'Ternary'; test: PelNode; consequent: PelNode; alternate: PelNode })
  | (Span & { type: 'Elvis'; left: PelNode; right: PelNode })
  | (Span & { type: 'Assign'; target: PelNode; value: PelNode })
  | (Span & { type: 'List'; elements: PelNode[] })
  | (Span & { type: 'Map'; entries: { key: string; keyStart: number; value: PelNode }[] });

export type PelNodeType = PelNode['type'];

/** The node of one type, e.g. `NodeOf<'Call'>`. */
export type NodeOf<T extends PelNodeType> = Extract<PelNode, { type: T }>;

/** The direct children of a node, in source order (for walks that must not recurse on deep trees). */
export function childrenOf(node: PelNode): PelNode[] {
  switch (node.type) {
    case 'Literal':
    case 'Identifier':
    case 'Variable':
    case 'Utility':
      return [];
    case 'Property':
      return [node.object];
    case 'Index':
      return [node.object, node.index];
    case 'Call':
      return node.object ? [node.object, ...node.args] : node.args;
    case 'Selection':
      return [node.object, node.predicate];
    case 'Projection':
      return [node.object, node.mapper];
    case 'Unary':
      return [node.operand];
    case 'Binary':
      return [node.left, node.right];
    case 'Ternary':
      return [node.test, node.consequent, node.alternate];
    case 'Elvis':
      return [node.left, node.right];
    case 'Assign':
      return [node.target, node.value];
    case 'List':
      return node.elements;
    case 'Map':
      return node.entries.map((e) => e.value);
  }
}

/** The nesting depth of a tree, measured without recursion so that hostile input cannot overflow the stack. */
export function depthOf(root: PelNode): number {
  let max = 0;
  const stack: [PelNode, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > max) max = depth;
    for (const child of childrenOf(node)) stack.push([child, depth + 1]);
  }
  return max;
}
