/**
 * Every signature of the real product's utility reference (../shared/reference/pel-utilities.txt) is callable
 * here by that name with that many arguments: the test walks the file, finds the spec that lists the
 * signature, and calls it with sample arguments. Skipped, saying so, when ../shared is not checked out.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPipeworkError } from '../errors';
import {
  type PelUtilities,
  UTILITY_SPECS,
  compileExpression,
  createInstanceUtility,
  createPropertyUtility,
  createUserUtility,
} from './index';
import { createIamUtility, createUriUtilities, signaturesOf } from './utilities';

const REFERENCE = resolve(import.meta.dirname, '../../../shared/reference/pel-utilities.txt');

interface Signature {
  line: string;
  utility: string;
  fn: string;
  params: string[];
}

function signatures(): Signature[] {
  return readFileSync(REFERENCE, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('@'))
    .map((line) => {
      const m = /^@(\w+)\.(\w+)\((.*)\)$/.exec(line);
      if (!m) throw new Error(`cannot read the reference line '${line}'`);
      const params = m[3]!.trim() === '' ? [] : m[3]!.split(',').map((p) => p.trim());
      return { line, utility: m[1]!, fn: m[2]!, params };
    });
}

/** Sample arguments (PEL source) by parameter: 'utility.fn.param' before 'utility.param' before 'param'. */
const SAMPLES: Record<string, string> = {
  list: '{1, 2, 3}',
  value: "'42'",
  scale: '2',
  mode: "'HALF_UP'",
  uris: "{'uri:property:global/app/demo/text'}",
  uri: "'uri:property:global/app/demo/text'",
  base64String: "'aGVsbG8='",
  name: "'hello.txt'",
  contentType: "'text/plain'",
  contentEncoding: "'utf-8'",
  object: "{'a': 1}",
  o: "'[1, 2]'",
  decimalSymbol: "','",
  pattern: "'#,##0.00'",
  data: "{'a': {'b': 1}}",
  path: "'a.b'",
  map: "{'a': 1}",
  key: "'k'",
  input: "{'a': 1, 'b': 2}",
  selections: "'a'",
  startInt: '1',
  endInt: '3',
  attribute: "'a.b'",
  type: "'map'",
  format: "'yyyy-MM-dd'",
  zoneId: "'Europe/Berlin'",
  locale: "'de'",
  dateTimeString: "'01.02.2024'",
  outputFormat: "'yyyy-MM-dd'",
  inputDate: "'01.02.2024'",
  inputFormat: "'dd.MM.yyyy'",
  iso8601Date: "'2024-02-01T10:00:00Z'",
  timestamp: '1706781600000',
  dateString: "'2024-02-01'",
  iso8601Start: "'2024-01-01T00:00:00Z'",
  iso8601End: "'2024-12-31T00:00:00Z'",
  expiredInPercents: '50',
  currentDate: "'2024-07-01T00:00:00Z'",
  dueDate: "'2024-01-01T00:00:00Z'",
  dateTime: "'2024-02-01T10:00:00Z'",
  yearOffset: '1',
  monthOffset: '-1',
  weekOffset: '1',
  dayOffset: '1',
  weekStartDay: "'MONDAY'",
  args: '{}',
  separator: "':'",
  text: "'Hello World'",
  userUuid: "'u-1'",
  username: "'jdoe'",
  email: "'jdoe@example.com'",
  serviceName: "'hub'",
  profiles: "'dev, test'",
  image: "'app:1'",
  source: '\'{"a": 1}\'',
  json: "{'a': {'b': 1}}",
  query: "'$.a.b'",
  expression: "'0:1'",
  element: "'x'",
  ignoreNulls: 'true',
  index: '0',
  needles: "'World'",
  pathItems: "{'a', 'b'}",
  script: "'1 + 1'",
  needle: "'o'",
  offset: '5',
  stop: "'o'",
  length: '5',
  size: '8',
  basetext: "'a'",
  collection: "{'a', 'b'}",
  items: "{'a', 'b'}",
  padChar: "'*'",
  prefix: "'He'",
  replacement: "'0'",
  beginIndex: '1',
  endIndex: '3',
  token: "' '",
  pos: '0',
  c: "'J'",
  regexp: "'H.*'",
  pel: "'#this.toUpperCase()'",
  permissionKeys: "'ROLE_USER'",
  document: "'<a><b>hi</b></a>'",
  xpath: "'/a/b'",
  'calc.value': '2.345',
  'date.format.format': "'yyyy'",
  'data.put.key': "'k'",
  'data.set.path': "'a.c'",
  'hash.text': "{'a', 'b'}",
  'hash.input': "'abc'",
  'instance.env.name': "'REGION'",
  'property.key': "'global/app/demo/text'",
  'property.pattern': "'global/app/**'",
  'property.value': "'new'",
  'text.format.pattern': "'{0}!'",
  'text.format.args': "'x'",
  'text.separator': "', '",
  'text.escapeCsvValue.value': "'a,b'",
  'function.run.name': "'f'",
  'user.object': "{'username': 'x', 'email': 'x@example.com', 'firstName': 'X', 'lastName': 'Y'}",
};

function sample(s: Signature, param: string): string {
  const v = SAMPLES[`${s.utility}.${s.fn}.${param}`] ?? SAMPLES[`${s.utility}.${param}`] ?? SAMPLES[param];
  if (v === undefined) throw new Error(`no sample for the parameter '${param}' of ${s.line}`);
  return v;
}

/** The only signatures that answer an error by design, and what it says. */
const REFUSED: Record<string, RegExp> = {
  'script.groovy': /Groovy scripts are not supported/,
  'function.run': /serverless functions are not hosted here/,
};

const store: Record<string, unknown> = { 'global/app/demo/text': 'hello' };
const users: Record<string, unknown>[] = [
  { id: 'u-1', username: 'jdoe', email: 'jdoe@example.com', firstName: 'John', lastName: 'Doe' },
];

function utilities(): PelUtilities {
  return {
    user: createUserUtility({ username: 'jdoe', uuid: 'u-1', roles: ['ROLE_USER'] }),
    property: createPropertyUtility({
      value: (key) => store[key],
      get: (key) => (key in store ? { key, value: store[key] } : undefined),
      values: () => Object.values(store),
      updateValue: (key, value) => (store[key] = value),
    }),
    instance: createInstanceUtility({ profiles: ['dev'], name: 'pipework', env: { REGION: 'eu' } }),
    iam: createIamUtility({
      userByUuid: (uuid) => users.find((u) => u.id === uuid),
      userByUsername: (name) => users.find((u) => u.username === name),
      userByEmail: (email) => users.find((u) => u.email === email),
    }),
    ...createUriUtilities({
      property: (key) => store[key],
      user: (by, value) => (by === 'current' ? users[0] : users.find((u) => u[by] === value)),
    }),
  };
}

const present = existsSync(REFERENCE);

describe.skipIf(!present)('the real product’s utility reference', () => {
  const all = present ? signatures() : [];

  it('has its 182 signatures', () => {
    expect(all).toHaveLength(182);
  });

  it.each(all.map((s) => [s.line, s] as const))('%s is specified and callable', (_line, s) => {
    const spec = UTILITY_SPECS.find((u) => u.name === s.utility);
    expect(spec, `no utility @${s.utility}`).toBeDefined();
    const fn = spec!.functions[s.fn];
    expect(fn, `@${s.utility} has no function ${s.fn}`).toBeDefined();
    expect(signaturesOf(fn!)).toContain(`${s.fn}(${s.params.join(', ')})`);

    const call = `@${s.utility}.${s.fn}(${s.params.map((p) => sample(s, p)).join(', ')})`;
    let error: unknown;
    try {
      compileExpression(call).evaluate({ body: null, vars: {}, headers: {} }, { utilities: utilities() });
    } catch (e) {
      error = e;
    }
    const refused = REFUSED[`${s.utility}.${s.fn}`];
    if (refused) {
      expect(isPipeworkError(error) && error.details.reason, call).toBe('UTILITY_FAILED');
      expect(String((error as Error).message)).toMatch(refused);
    } else if (error) {
      throw new Error(`${call} failed: ${String(error)}`);
    }
  });
});

if (!present)
  console.warn(`The utility reference tests are skipped: ${REFERENCE} is not there (check out ../shared).`);

/** The number of arguments of each `@utility.fn(...)` call in a text (strings and nesting skipped). */
function callsIn(source: string): { name: string; args: number }[] {
  const out: { name: string; args: number }[] = [];
  const re = /@(\w+)\.(\w+)\(/g;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    let depth = 0;
    let args = 0;
    let quote: string | null = null;
    let any = false;
    for (let i = re.lastIndex; i < source.length; i++) {
      const c = source[i]!;
      if (quote) {
        if (c === quote) quote = null;
        continue;
      }
      if (c === "'" || c === '"') quote = c;
      if ('({['.includes(c)) depth++;
      else if (')}]'.includes(c)) {
        if (depth === 0) break;
        depth--;
      } else if (c === ',' && depth === 0) args++;
      if (!/\s/.test(c)) any = true;
    }
    out.push({ name: `${m[1]}.${m[2]}`, args: any ? args + 1 : 0 });
  }
  return out;
}

describe('the conformance cases', () => {
  const files = import.meta.glob<string>('./cases/utility-*.json', {
    eager: true,
    query: '?raw',
    import: 'default',
  });
  const calls = Object.values(files).flatMap((raw) =>
    (JSON.parse(raw) as { expr: string }[]).flatMap((c) => callsIn(c.expr)),
  );
  const overloads = UTILITY_SPECS.flatMap((u) =>
    Object.entries(u.functions).flatMap(([name, f]) =>
      signaturesOf(f).map((signature) => {
        const params = signature.slice(signature.indexOf('(') + 1, -1).trim();
        const all = params === '' ? [] : params.split(',');
        const required = all.filter((p) => !/[?]|\.\.\./.test(p)).length;
        const exact = required === all.length;
        return { call: `${u.name}.${name}`, signature: `@${u.name}.${signature}`, args: required, exact };
      }),
    ),
  );

  it.each(overloads.map((o) => [o.signature, o] as const))('call %s at least once', (_s, o) => {
    expect(
      calls.some((c) => c.name === o.call && (o.exact ? c.args === o.args : c.args >= o.args)),
      `no case calls ${o.signature}`,
    ).toBe(true);
  });

  it.each(UTILITY_SPECS.map((u) => [u.name] as const))('@%s has a case file', (name) => {
    expect(Object.keys(files)).toContain(`./cases/utility-${name}.json`);
  });
});
