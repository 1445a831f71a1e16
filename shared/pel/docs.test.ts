/** docs/pel.md stays complete: every method and utility function the code offers is documented there. */
import { describe, expect, it } from 'vitest';
import { UTILITY_SPECS } from './index';
import { BOOLEAN_METHODS, LIST_METHODS, MAP_METHODS, NUMBER_METHODS, STRING_METHODS } from './methods';

const docs = Object.values(
  import.meta.glob<string>('/docs/pel.md', { eager: true, query: '?raw', import: 'default' }),
)[0];

describe('docs/pel.md', () => {
  it('exists', () => {
    expect(docs).toBeTypeOf('string');
  });

  it.each(
    [STRING_METHODS, LIST_METHODS, MAP_METHODS, NUMBER_METHODS, BOOLEAN_METHODS].flatMap((table) =>
      [...(table as ReadonlyMap<string, { signature: string }>).values()].map((m) => m.signature),
    ),
  )('documents the method %s', (signature) => {
    expect(docs).toContain(`\`${signature}\``);
  });

  it.each(UTILITY_SPECS.flatMap((s) => Object.values(s.functions).map((f) => `@${s.name}.${f.signature}`)))(
    'documents %s',
    (signature) => {
      expect(docs).toContain(`\`${signature}\``);
    },
  );
});
