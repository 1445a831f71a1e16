import { describe, expect, it } from 'vitest';
import type { Principal } from '../auth';
import { CommandRegistry, coreCommands, defineCommand } from '../commands';
import { PipeworkError } from '../errors';
import { parsePipelineYaml } from '../pipeline';
import { runPipeline } from './run-pipeline';
import type { RunPipelineOptions } from './run-options';

let flakyCalls = 0;
const flaky = defineCommand(
  { name: 'test.flaky', summary: 'Fails until its third call.', parameters: {}, input: 'any', output: 'any' },
  () => {
    flakyCalls++;
    if (flakyCalls < 3) throw new PipeworkError('UPSTREAM_FAILED', `failure ${flakyCalls}`);
    return `ok after ${flakyCalls}`;
  },
);
const slow = defineCommand(
  {
    name: 'test.slow',
    summary: 'Waits a while.',
    parameters: { ms: { type: 'integer' } },
    required: ['ms'],
    input: 'any',
    output: 'any',
  },
  ({ params }) => new Promise((resolve) => setTimeout(() => resolve('done'), Number(params.ms))),
);
const registry = new CommandRegistry([...coreCommands, flaky, slow]);

const admin: Principal = {
  uuid: 'u1',
  username: 'admin',
  roles: new Set(['ROLE_ADMIN']),
  groups: new Set(),
  tenants: new Set(),
};

async function run(yaml: string, options: Partial<RunPipelineOptions<unknown>> = {}) {
  return runPipeline(parsePipelineYaml(yaml), { registry, services: {}, principal: admin, ...options });
}

async function failure(
  yaml: string,
  options: Partial<RunPipelineOptions<unknown>> = {},
): Promise<PipeworkError> {
  try {
    await run(yaml, options);
  } catch (error) {
    if (error instanceof PipeworkError) return error;
    throw error;
  }
  throw new Error('expected the pipeline to fail');
}

describe('runPipeline', () => {
  it('chains bodies and evaluates templates (the spec example)', async () => {
    const logs: string[] = [];
    const result = await run(
      'pipeline:\n  - log:\n      message: "BODY: #{body.text}"\nbody:\n  text: hello\n',
      {
        onLog: (e) => logs.push(e.message),
      },
    );
    expect(logs).toEqual(['BODY: hello']);
    expect(result.body).toEqual({ text: 'hello' });
  });

  it('outputs the message of log when the body is empty', async () => {
    expect((await run('pipeline:\n  - log: hi\n')).body).toBe('hi');
  });

  it.each([
    ['a single expression keeps its type', 'pipeline:\n  - set.body: "#{1 + 2}"\n', 3],
    ['mixed text is a string', 'pipeline:\n  - set.body: "n=#{1 + 2}"\n', 'n=3'],
    [
      'vars are evaluated in order',
      'vars:\n  a: 2\n  b: "#{vars.a * 10}"\npipeline:\n  - set.body: "#{vars.b}"\n',
      20,
    ],
    [
      'output writes to a target, not the body',
      'body: 1\npipeline:\n  - set:\n      value: 5\n      output: "#{vars.x}"\n  - set.body: "#{{vars.x, body}}"\n',
      [5, 1],
    ],
    [
      'input reads from a source',
      'vars:\n  list: [3, 4]\npipeline:\n  - set:\n      input: "#{vars.list}"\n',
      [3, 4],
    ],
    ['if skips a step', 'body: 1\npipeline:\n  - set.body:\n      value: 2\n      if: "#{body > 5}"\n', 1],
    [
      'set.var leaves the body',
      'body: 7\npipeline:\n  - set.var:\n      key: v\n      value: 8\n  - log\n',
      7,
    ],
    [
      'eval does not touch the body',
      'body: 7\nvars: {n: 1}\npipeline:\n  - eval: "#{vars.n = vars.n + 1}"\n  - set.body: "#{vars.n + body}"\n',
      9,
    ],
    ['exit stops with the current body', 'pipeline:\n  - set.body: a\n  - exit\n  - set.body: b\n', 'a'],
  ])('%s', async (_name, yaml, expected) => {
    expect((await run(yaml)).body).toEqual(expected);
  });

  it.each([
    [10, 'big'],
    [1, 'small'],
  ])('if/if.else/if.end branches on %s', async (n, expected) => {
    const yaml = `body: ${n}\npipeline:\n  - if: "#{body > 5}"\n  - set.body: big\n  - if.else\n  - set.body: small\n  - if.end\n  - log\n`;
    expect((await run(yaml)).body).toBe(expected);
  });

  it('nests if blocks inside foreach and counts iterations', async () => {
    const yaml = [
      'vars: {even: 0, odd: 0}',
      'body: [1, 2, 3, 4, 5]',
      'pipeline:',
      '  - foreach: "#{body}"',
      '  - if: "#{vars.item % 2 == 0}"',
      '  - eval: "#{vars.even = vars.even + 1}"',
      '  - if.else',
      '  - eval: "#{vars.odd = vars.odd + vars.loop.index}"',
      '  - if.end',
      '  - foreach.end',
      '  - set.body: "#{vars.even * 100 + vars.odd}"',
    ].join('\n');
    // even items: 2 and 4; odd items at indexes 0, 2, 4
    expect((await run(yaml)).body).toBe(206);
  });

  it('iterates a map as key/value entries with a custom variable', async () => {
    const yaml =
      'vars: {keys: ""}\npipeline:\n  - foreach:\n      in: "#{{a: 1, b: 2}}"\n      as: e\n  - eval: "#{vars.keys = vars.keys + vars.e.key + vars.e.value}"\n  - foreach.end\n  - set.body: "#{vars.keys}"\n';
    expect((await run(yaml)).body).toBe('a1b2');
  });

  it('reports a misplaced block closer with its line', async () => {
    const error = await failure('pipeline:\n  - log: a\n  - if.end\n');
    expect(error.code).toBe('PIPELINE_SYNTAX');
    expect(error.details).toMatchObject({ line: 3, commandIndex: 1 });
  });

  it('names the command, index, line and column of a failing expression', async () => {
    const error = await failure('pipeline:\n  - log: a\n  - log:\n      message: "#{body.missing.deeper}"\n');
    expect(error.code).toBe('PEL_EVAL');
    expect(error.details).toMatchObject({ commandName: 'log', commandIndex: 1, line: 4 });
    expect(error.details.column).toBeGreaterThanOrEqual(16);
  });

  it('places an error in a vars expression at its line in the pipeline', async () => {
    const error = await failure('body: 1\nvars:\n  ok: 1\n  bad: "#{1 +}"\npipeline:\n  - log\n');
    expect(error.code).toBe('PEL_SYNTAX');
    expect(error.details).toMatchObject({ section: 'vars', name: 'bad', line: 4 });
  });

  it('reports unknown commands before running anything', async () => {
    const logs: string[] = [];
    const error = await failure('pipeline:\n  - log: first\n  - no.such.command\n', {
      onLog: (e) => logs.push(e.message),
    });
    expect(error.code).toBe('COMMAND_NOT_FOUND');
    expect(error.details).toMatchObject({ line: 3, column: 5, commandIndex: 1 });
    expect(logs).toEqual([]);
  });

  it.each([
    ['an unknown parameter', 'pipeline:\n  - log:\n      mesage: x\n', 'mesage'],
    ['a wrong type', 'pipeline:\n  - log:\n      message: x\n      level: LOUD\n', 'level'],
    ['a missing required parameter', 'pipeline:\n  - set.var:\n      key: x\n', 'value'],
  ])('rejects %s with PARAM_INVALID naming it', async (_name, yaml, parameter) => {
    const error = await failure(yaml);
    expect(error.code).toBe('PARAM_INVALID');
    expect(error.details.parameter).toBe(parameter);
  });

  it.each([
    ['IGNORE', 'after'],
    ['LOG', 'after'],
  ])('onCommandError %s goes on and exposes the exception', async (policy, expected) => {
    const yaml = `headers:\n  onCommandError: ${policy}\npipeline:\n  - error: boom\n  - set.body: "#{exception.message == 'boom' ? 'after' : 'wrong'}"\n`;
    expect((await run(yaml)).body).toBe(expected);
  });

  it('onError on a step overrides the header', async () => {
    const error = await failure(
      'headers:\n  onCommandError: IGNORE\npipeline:\n  - error:\n      message: stop\n      onError: THROW\n',
    );
    expect(error.code).toBe('ASSERTION_FAILED');
    expect(error.message).toBe('stop');
  });

  it('retries a failing command', async () => {
    flakyCalls = 0;
    const result = await run('pipeline:\n  - test.flaky:\n      onError: "RETRY; times=3; wait=0"\n');
    expect(result.body).toBe('ok after 3');
  });

  it('gives up after the retries and applies then=', async () => {
    flakyCalls = -10;
    const result = await run(
      'body: kept\npipeline:\n  - test.flaky:\n      onError: "RETRY; times=1; wait=0; then=IGNORE"\n',
    );
    expect(result.body).toBe('kept');
  });

  it('refuses an unknown policy', async () => {
    expect((await failure('pipeline:\n  - log:\n      onError: MAYBE\n')).code).toBe('PARAM_INVALID');
  });

  it('stops at the step limit', async () => {
    const yaml =
      'body: [1,2,3,4,5,6,7,8,9,10]\npipeline:\n  - foreach: "#{body}"\n  - log: x\n  - foreach.end\n';
    const error = await failure(yaml, { limits: { maxSteps: 5 } });
    expect(error.code).toBe('LIMIT_EXCEEDED');
    expect(error.details.limit).toBe('steps');
  });

  it('stops at the time limit, even inside a slow command', async () => {
    const error = await failure('pipeline:\n  - test.slow:\n      ms: 5000\n', { limits: { maxMillis: 50 } });
    expect(error.code).toBe('LIMIT_EXCEEDED');
    expect(error.details.limit).toBe('time');
  });

  it('traces every step with evaluated params, output, duration and logs', async () => {
    const result = await run(
      'body: {text: hi}\npipeline:\n  - log: "BODY: #{body.text}"\n  - set.body:\n      value: "#{body.text.toUpperCase()}"\n  - log:\n      if: false\n',
      { trace: true },
    );
    expect(result.trace).toHaveLength(3);
    expect(result.trace![0]).toMatchObject({
      command: 'log',
      params: { message: 'BODY: hi' },
      logs: [{ level: 'INFO', message: 'BODY: hi' }],
    });
    expect(result.trace![1]).toMatchObject({ command: 'set.body', output: 'HI' });
    expect(result.trace![2]).toMatchObject({ skipped: true });
    expect(typeof result.trace![0]!.durationMs).toBe('number');
  });

  it('marks the step whose error ends the run in the trace the error carries', async () => {
    const error = await failure('pipeline:\n  - log: first\n  - error: stop here\n  - log: never\n', {
      trace: true,
    });
    const trace = error.details.trace as { command: string; error?: unknown }[];
    expect(trace.map((t) => t.command)).toEqual(['log', 'error']);
    expect(trace[0]!.error).toBeUndefined();
    expect(trace[1]!.error).toEqual({ code: 'ASSERTION_FAILED', message: 'stop here' });
  });

  it('checks permissions for every step', async () => {
    const authorize = (_p: unknown, contract: { name: string }) => {
      if (contract.name === 'set.body') throw new PipeworkError('FORBIDDEN', 'no');
    };
    const error = await failure('pipeline:\n  - log: a\n  - set.body: b\n', { authorize });
    expect(error.code).toBe('FORBIDDEN');
    expect(error.details.commandIndex).toBe(1);
  });

  it.each([
    ['test passes', 'body: 2\npipeline:\n  - test: "#{body == 2}"\n', null],
    ['test fails', 'body: 2\npipeline:\n  - test: "#{body == 3}"\n', 'ASSERTION_FAILED'],
    ['assert equals', 'body: 2\npipeline:\n  - assert:\n      equals: 2\n', null],
    [
      'assert equals fails',
      'body: 2\npipeline:\n  - assert:\n      equals: 3\n      message: "not three"\n',
      'ASSERTION_FAILED',
    ],
    ['assert false', 'pipeline:\n  - assert:\n      false: "1 > 2"\n', null],
    ['assert true fails', 'pipeline:\n  - assert:\n      true: "1 > 2"\n', 'ASSERTION_FAILED'],
  ])('%s', async (_name, yaml, code) => {
    if (code === null) await run(yaml);
    else expect((await failure(yaml)).code).toBe(code);
  });
});

describe('the runWhen header', () => {
  it.each([
    ['true', 'ran'],
    ['false', 'skipped'],
  ])('when %s', async (condition, expected) => {
    const result = await run(
      `headers:\n  runWhen: "#{${condition}}"\nbody: skipped\npipeline:\n  - set.body: ran\n`,
    );
    expect(result.body).toBe(expected);
  });
});
