// finally, the JSON form of onError, the common eval parameter and a command's exit: the runner alone.
import { describe, expect, it } from 'vitest';
import type { Principal } from '../auth';
import { CommandRegistry, coreCommands, defineCommand } from '../commands';
import { PipeworkError, isPipeworkError } from '../errors';
import { parsePipelineYaml } from '../pipeline';
import { runPipeline } from './run-pipeline';

let calls = 0;
const failing = defineCommand(
  { name: 'test.fail', summary: 'Always fails.', parameters: {}, input: 'any', output: 'any' },
  () => {
    calls++;
    throw new PipeworkError('UPSTREAM_FAILED', `failure ${calls}`);
  },
);
const exiting = defineCommand(
  { name: 'test.exit', summary: 'Gives done and ends the run.', parameters: {}, input: 'any', output: 'any' },
  (ctx) => {
    ctx.exit?.();
    return 'done';
  },
);
const registry = new CommandRegistry([...coreCommands, failing, exiting]);
const admin: Principal = {
  uuid: 'u1',
  username: 'admin',
  roles: new Set(['ROLE_ADMIN']),
  groups: new Set(),
  tenants: new Set(),
};
const run = (yaml: string) =>
  runPipeline(parsePipelineYaml(yaml), { registry, services: {}, principal: admin });

async function failure(yaml: string): Promise<PipeworkError> {
  try {
    await run(yaml);
  } catch (error) {
    if (isPipeworkError(error)) return error;
    throw error;
  }
  throw new Error('the run should have failed');
}

describe('finally', () => {
  it('runs its steps after the last step', async () => {
    const result = await run('pipeline:\n  - set.body: a\n  - finally\n  - set.body: "#{body}b"\n');
    expect(result.body).toBe('ab');
  });

  it('runs after exit, with the body exit left', async () => {
    const result = await run(
      'pipeline:\n  - set.body: a\n  - exit\n  - set.body: never\n  - finally\n  - set.body: "#{body}-cleaned"\n',
    );
    expect(result.body).toBe('a-cleaned');
  });

  it('runs after an error, sees it in exception, and the error is still the result', async () => {
    const yaml =
      'pipeline:\n  - set.body: a\n  - test.fail\n  - finally:\n      do: "#{vars.seen = exception.message}"\n  - set.var: {key: after, value: "#{exception.code}"}\n';
    const error = await failure(yaml);
    expect(error.code).toBe('UPSTREAM_FAILED');
    expect(error.details.commandName).toBe('test.fail');
  });

  it('is refused inside a foreach, before anything runs', async () => {
    const error = await failure(
      'pipeline:\n  - set.body: started\n  - foreach: "#{{1, 2}}"\n  - finally\n  - log: x\n  - foreach.end\n',
    );
    expect(error.code).toBe('PIPELINE_SYNTAX');
    expect(error.message).toContain("inside the 'foreach' block of step 1");
    expect(error.details.commandIndex).toBe(2);
  });

  it('is refused inside an if and when given twice', async () => {
    expect((await failure('pipeline:\n  - if: "#{true}"\n  - finally\n  - if.end\n')).code).toBe(
      'PIPELINE_SYNTAX',
    );
    expect((await failure('pipeline:\n  - finally\n  - finally\n')).message).toContain("second 'finally'");
  });
});

describe('onError in its JSON form', () => {
  it('ignores with {"action": "IGNORE"} as a header and as a parameter', async () => {
    expect(
      (await run('headers:\n  onError: {"action": "IGNORE"}\npipeline:\n  - test.fail\n  - set.body: on\n'))
        .body,
    ).toBe('on');
    expect(
      (await run('pipeline:\n  - test.fail:\n      onError: {"action": "LOG"}\n  - set.body: on\n')).body,
    ).toBe('on');
  });

  it('retries the given times, then does what then says (short or long form)', async () => {
    calls = 0;
    const body = (
      await run(
        'pipeline:\n  - test.fail:\n      onError: {"action": "RETRY", "times": 2, "wait": 0, "then": {"action": "IGNORE"}}\n  - set.body: "#{exception.message}"\n',
      )
    ).body;
    expect(calls).toBe(3);
    expect(body).toBe('failure 3');
  });

  it('refuses ROLLBACK, unknown actions and settings by name', async () => {
    const rollback = await failure(
      'pipeline:\n  - test.fail:\n      onError: {"action": "ROLLBACK", "pipeline": "uri:property:x"}\n',
    );
    expect(rollback.message).toContain('ROLLBACK');
    expect(
      (await failure('pipeline:\n  - test.fail:\n      onError: {"action": "MAYBE"}\n')).message,
    ).toContain('MAYBE');
    expect(
      (await failure('pipeline:\n  - test.fail:\n      onError: {"action": "LOG", "times": 2}\n')).code,
    ).toBe('PARAM_INVALID');
  });
});

describe('the eval parameter and a command ending the run', () => {
  it('evaluates eval after the command, with its result in place', async () => {
    const result = await run(
      'vars: {n: 1}\npipeline:\n  - set.body:\n      value: 5\n      eval: "#{vars.n = body + 1}"\n  - set.body: "#{vars.n}"\n',
    );
    expect(result.body).toBe(6);
  });

  it('does not evaluate eval of a skipped command', async () => {
    const result = await run(
      'vars: {n: 1}\npipeline:\n  - log:\n      message: x\n      if: false\n      eval: "#{vars.n = 2}"\n  - set.body: "#{vars.n}"\n',
    );
    expect(result.body).toBe(1);
  });

  it('ends the run after a command asks to, its result written first', async () => {
    const result = await run('pipeline:\n  - test.exit\n  - set.body: never\n');
    expect(result.body).toBe('done');
  });
});
