// The data, flow, barcode and SQL commands carry the real product's names and parameters (v7 schema),
// and appear in our own v7 schema; what the real product has and we do not offer is listed with its reason.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CommandRegistry } from '../../../shared/commands';
import { generatePipelineSchema } from '../../../shared/commands/schema-v7';
import { barcodeCommands } from '../barcode';
import { dataCommands } from '../data';
import { serverCommands } from '../index';
import { sqlCommands } from '../sql';
import { transformCommands } from '../transform';
import { flowCommands } from '.';

const reference = resolve(import.meta.dirname, '../../../../shared/reference/pipeline-schema-v7.json');
const present = existsSync(reference);
if (!present) console.warn(`real-product name tests skipped: ${reference} is absent`);

/** Parameters of the real product these commands do not offer, and why. */
const NOT_OFFERED: Record<string, string> = {
  'sql.query columnField': 'column names apart go under the name columnName gives',
  'transform groupBy': 'grouping rows is not offered; data.list.* and data.mapping cover the corpus',
  'data.transform groupBy': 'grouping rows is not offered; data.list.* and data.mapping cover the corpus',
};

const ours = [...sqlCommands, ...dataCommands, ...transformCommands, ...barcodeCommands, ...flowCommands];

interface ReferenceCommand {
  properties?: Record<string, unknown>;
}

describe.skipIf(!present)('the real product’s names', () => {
  const commands = present
    ? (JSON.parse(readFileSync(reference, 'utf8')).properties.pipeline.items.properties as Record<
        string,
        ReferenceCommand
      >)
    : {};
  const names = ours.flatMap((d) => [d.contract.name, ...(d.contract.aliases ?? [])]);

  it('has the commands the issue names under the real product’s names', () => {
    for (const name of [
      'sql.query',
      'data.mapping',
      'transform',
      'data.transform',
      'barcode.create',
      'switch',
      'pipeline.start',
      'pipeline.run',
      'call',
    ]) {
      expect(commands[name], name).toBeDefined();
      expect(names, name).toContain(name);
    }
  });

  it.each(names.filter((n) => commands[n]))(
    '%s takes every parameter of the real product (or says why not)',
    (name) => {
      const contract = new CommandRegistry(serverCommands).get(name)!.contract;
      const common = new Set(['if', 'input', 'output', 'onError', 'id', 'description']);
      const missing = Object.keys(commands[name]!.properties ?? {}).filter(
        (p) => !common.has(p) && !(p in contract.parameters) && !(`${name} ${p}` in NOT_OFFERED),
      );
      expect(missing).toEqual([]);
    },
  );

  it('lists them all in our v7 schema', () => {
    const schema = generatePipelineSchema(new CommandRegistry(serverCommands).contracts()) as {
      properties: {
        pipeline: { items: { properties: Record<string, { properties?: Record<string, unknown> }> } };
      };
    };
    const listed = schema.properties.pipeline.items.properties;
    for (const name of names) expect(listed[name], name).toBeDefined();
    expect(Object.keys(listed['barcode.create']!.properties ?? {})).toEqual(
      expect.arrayContaining(['text', 'format', 'width', 'height']),
    );
    expect(Object.keys(listed['pipeline.run']!.properties ?? {})).toContain('name');
  });
});
