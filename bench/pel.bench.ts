/** PEL against jexl, jsonata and hand-written JavaScript on the same expressions, measured in one run. */
import jsonata from 'jsonata';
import { type BenchReport, median, measureOpsPerSecond } from './bench-report';
import { type PelScope, compileExpression, compileTemplate } from '../shared/pel';

interface JexlExpression {
  evalSync(context: unknown): unknown;
}
interface Jexl {
  compile(source: string): JexlExpression;
  addTransform(name: string, fn: (...args: unknown[]) => unknown): void;
}

interface Item {
  id: number;
  name: string;
  price: number;
}

/** One expression written in every contender's syntax, with the data it runs on. */
interface Scenario {
  name: string;
  pel: string;
  template?: boolean;
  jexl: string;
  jsonata: string;
  js: (scope: PelScope) => unknown;
}

const items: Item[] = Array.from({ length: 10_000 }, (_v, i) => ({
  id: i,
  name: `item-${i}`,
  price: (i * 7919) % 1000,
}));

const scope: PelScope = {
  body: {
    order: { customer: { address: { city: 'Berlin' } } },
    price: 12.5,
    qty: 3,
    discount: 1.5,
    name: 'pipework',
    age: 42,
    status: 'active',
    tags: ['new', 'vip', 'eu'],
    items,
  },
  vars: {},
  headers: {},
};

type Body = {
  order: { customer: { address: { city: string } } };
  price: number;
  qty: number;
  discount: number;
  name: string;
  age: number;
  status: string;
  tags: string[];
  items: Item[];
};
const b = (s: PelScope): Body => s.body as Body;

const scenarios: Scenario[] = [
  {
    name: 'field path (4 steps)',
    pel: 'body.order.customer.address.city',
    jexl: 'body.order.customer.address.city',
    jsonata: 'body.order.customer.address.city',
    js: (s) => b(s).order.customer.address.city,
  },
  {
    name: 'arithmetic',
    pel: '(body.price * body.qty + 10.0) / 2 - body.discount',
    jexl: '(body.price * body.qty + 10) / 2 - body.discount',
    jsonata: '(body.price * body.qty + 10) / 2 - body.discount',
    js: (s) => (b(s).price * b(s).qty + 10) / 2 - b(s).discount,
  },
  {
    name: 'string methods',
    pel: "body.name.toUpperCase().substring(0, 4) + '-' + body.name.length()",
    jexl: "(body.name|upper|substring(0, 4)) + '-' + (body.name|length)",
    jsonata: "$substring($uppercase(body.name), 0, 4) & '-' & $length(body.name)",
    js: (s) => `${b(s).name.toUpperCase().substring(0, 4)}-${b(s).name.length}`,
  },
  {
    name: 'comparison and logic',
    pel: "body.age > 18 and body.status == 'active' and body.tags.contains('vip')",
    jexl: "body.age > 18 && body.status == 'active' && 'vip' in body.tags",
    jsonata: "body.age > 18 and body.status = 'active' and 'vip' in body.tags",
    js: (s) => b(s).age > 18 && b(s).status === 'active' && b(s).tags.includes('vip'),
  },
  {
    name: 'selection over 10,000 items',
    pel: 'body.items.?[price > 500]',
    jexl: 'body.items[.price > 500]',
    jsonata: 'body.items[price > 500]',
    js: (s) => b(s).items.filter((x) => x.price > 500),
  },
  {
    name: 'projection over 10,000 items',
    pel: 'body.items.![price * 2]',
    jexl: "body.items|map('price * 2')",
    jsonata: 'body.items.(price * 2)',
    js: (s) => b(s).items.map((x) => x.price * 2),
  },
  {
    name: 'selection then projection over 10,000 items',
    pel: 'body.items.?[price > 500].![name]',
    jexl: "body.items[.price > 500]|map('name')",
    jsonata: 'body.items[price > 500].name',
    js: (s) =>
      b(s)
        .items.filter((x) => x.price > 500)
        .map((x) => x.name),
  },
  {
    name: 'template with two expressions',
    pel: 'Hello #{body.name}, you owe #{body.price * body.qty} EUR',
    template: true,
    jexl: "'Hello ' + body.name + ', you owe ' + (body.price * body.qty) + ' EUR'",
    jsonata: "'Hello ' & body.name & ', you owe ' & (body.price * body.qty) & ' EUR'",
    js: (s) => `Hello ${b(s).name}, you owe ${b(s).price * b(s).qty} EUR`,
  },
];

async function loadJexl(): Promise<Jexl> {
  const specifier: string = 'jexl';
  const mod = (await import(specifier)) as { default: Jexl };
  const jexl = mod.default;
  const compiled = new Map<string, JexlExpression>();
  jexl.addTransform('upper', (v) => String(v).toUpperCase());
  jexl.addTransform('substring', (v, from, to) => String(v).substring(from as number, to as number));
  jexl.addTransform('length', (v) => String(v).length);
  // jexl 2 has no lambdas: a transform that evaluates a sub-expression per item is its idiom for map.
  jexl.addTransform('map', (list, expr) => {
    let e = compiled.get(expr as string);
    if (!e) compiled.set(expr as string, (e = jexl.compile(expr as string)));
    return (list as unknown[]).map((x) => e.evalSync(x));
  });
  return jexl;
}

/** Awaits `fn` repeatedly for about `ms` milliseconds (jsonata 2 evaluates asynchronously). */
async function measureAsyncOpsPerSecond(fn: () => Promise<unknown>, ms: number): Promise<number> {
  const warmUntil = performance.now() + Math.min(100, ms / 2);
  while (performance.now() < warmUntil) await fn();
  let ops = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 10; i++) await fn();
    ops += 10;
    now = performance.now();
  }
  return (ops * 1000) / (now - start);
}

function sameResult(a: unknown, b2: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b2);
}

export default async function (report: BenchReport): Promise<void> {
  const jexl = await loadJexl();
  const rounds = 5;
  const ms = 150;
  for (const s of scenarios) {
    const pelCompiled = s.template ? compileTemplate(s.pel) : compileExpression(s.pel);
    const pel = (): unknown => pelCompiled.evaluate(scope);
    const jexlCompiled = jexl.compile(s.jexl);
    const jexlRun = (): unknown => jexlCompiled.evalSync(scope);
    const jsonataCompiled = jsonata(s.jsonata);
    const jsonataRun = (): Promise<unknown> => jsonataCompiled.evaluate(scope);
    const js = (): unknown => s.js(scope);

    const expected = js();
    const results = { pel: pel(), jexl: jexlRun(), jsonata: await jsonataRun() };
    for (const [who, r] of Object.entries(results)) {
      if (!sameResult(r, expected)) console.log(`  warning: ${who} gives a different result for '${s.name}'`);
    }

    const a: number[] = [];
    const n: number[] = [];
    const x: number[] = [];
    const j: number[] = [];
    for (let i = 0; i < rounds; i++) {
      a.push(measureOpsPerSecond(pel, ms));
      n.push(measureOpsPerSecond(js, ms));
      x.push(measureOpsPerSecond(jexlRun, ms));
      j.push(await measureAsyncOpsPerSecond(jsonataRun, ms));
    }
    const ours = median(a);
    report.add({
      name: `pel ${s.name}`,
      value: ours,
      unit: 'ops/s',
      baseline: 'hand-written JavaScript',
      baselineValue: median(n),
    });
    report.add({
      name: `pel ${s.name}`,
      value: ours,
      unit: 'ops/s',
      baseline: 'jexl 2.3',
      baselineValue: median(x),
    });
    report.add({
      name: `pel ${s.name}`,
      value: ours,
      unit: 'ops/s',
      baseline: 'jsonata 2.2 (async API)',
      baselineValue: median(j),
    });
  }
}
