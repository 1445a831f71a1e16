/** `data.list.iterate`: runs PEL actions on the items of a list (or on pairs of two lists) where a condition holds. */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { actionsExpression, runActions, whereHolds } from './do-actions';
import { unwrap } from './evaluate-in-context';

/** Pairs (items of listA times items of listB) one run may visit: a bound on the nested loop's work. */
export const MAX_ITERATE_PAIRS = 1_000_000;

const NAME = { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' } as const;

function listOf(value: unknown, parameter: string): unknown[] {
  let list = value;
  if (typeof list === 'string' && /^\s*\[/.test(list)) {
    try {
      list = JSON.parse(list) as unknown;
    } catch {
      // reported below
    }
  }
  if (!Array.isArray(list)) {
    throw new PipeworkError('PARAM_INVALID', `data.list.iterate needs a list in '${parameter}'.`, { parameter });
  }
  // The result is the list changed by the actions: a copy, so what the pipeline wrote stays as written.
  return structuredClone(list);
}

function given(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

export const dataListIterate = defineCommand(
  {
    name: 'data.list.iterate',
    summary:
      'Runs PEL actions (`do`) on each item of a list, or on each pair of two lists, where a condition (`where`) holds; gives the list.',
    description:
      "With `listA` and `listB`, listB is gone through for every item of listA, the items named `itemA` and `itemB`; with one list (`listA`, or the input) the item is `item` (and `itemA`). Several actions are separated by `;`. The result is listA as the actions changed it, e.g. `itemA.allowed = true`. At most 1,000,000 pairs; body, vars and headers stay reachable.",
    parameters: {
      listA: { description: 'The main list, changed by the actions; default: the input.' },
      listB: { description: 'The second list, gone through for every item of listA.' },
      where: {
        type: 'string',
        description: 'A PEL condition choosing the items (or pairs) the actions run on; default: all.',
      },
      do: {
        type: 'string',
        minLength: 1,
        description: 'PEL actions run on each chosen item, separated by `;`, e.g. `itemA.allowed = true`.',
      },
      iterItemName: { ...NAME, default: 'item', description: 'The name of the item of a single list.' },
      iterItemNameA: { ...NAME, default: 'itemA', description: 'The name of the item of listA.' },
      iterItemNameB: { ...NAME, default: 'itemB', description: 'The name of the item of listB.' },
    },
    required: ['do'],
    rawParameters: ['where', 'do'],
    input: 'json',
    output: 'json',
    effect: 'read',
    audience: 'developer',
    examples: [
      {
        title: 'Allow the people older than 18',
        pipeline:
          'pipeline:\n  - data.list.iterate:\n      listA: [{"name": "Max", "allowed": false}, {"name": "Hennah", "allowed": false}]\n      listB: [{"name": "Max", "age": 12}, {"name": "Hennah", "age": 23}]\n      where: "itemA.name == itemB.name and itemB.age > 18"\n      do: "itemA.allowed = true"\n',
      },
    ],
  },
  (ctx) => {
    const p = ctx.params;
    const nameA = String(p.iterItemNameA ?? 'itemA');
    const nameB = String(p.iterItemNameB ?? 'itemB');
    const single = String(p.iterItemName ?? 'item');
    const listA = given(p.listA) ? listOf(p.listA, 'listA') : listOf(ctx.input, 'input');
    const listB = given(p.listB) ? listOf(p.listB, 'listB') : undefined;
    const where = typeof p.where === 'string' && p.where.trim() !== '' ? unwrap(p.where) : undefined;
    const names = given(p.listB) ? [nameA, nameB] : [...new Set([single, nameA])];
    const actions = actionsExpression(String(p.do), names, 'do');
    if (listB && listA.length * listB.length > MAX_ITERATE_PAIRS) {
      throw new PipeworkError(
        'LIMIT_EXCEEDED',
        `data.list.iterate visits at most ${MAX_ITERATE_PAIRS} pairs; listA (${listA.length}) times listB (${listB.length}) is more.`,
        { parameter: 'listB' },
      );
    }
    if (!listB) {
      const scopes = listA.map((item) => ({ [single]: item, [nameA]: item }));
      runActions(ctx, whereHolds(ctx, scopes, where, 'where'), names, actions, 'do');
      return listA;
    }
    for (const itemA of listA) {
      const scopes = listB.map((itemB) => ({ [nameA]: itemA, [nameB]: itemB }));
      runActions(ctx, whereHolds(ctx, scopes, where, 'where'), names, actions, 'do');
    }
    return listA;
  },
);
