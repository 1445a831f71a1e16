/**
 * The registry one test run sees: the server's commands, with the mocks its `mock.command` steps declared in
 * front of them. It exists only inside `test.run`, so a mock can never apply outside a test run: nested
 * pipelines started from the test (`executePipeline(ctx.services, ...)`) see it because the test's services
 * carry it as `commands`.
 */
import {
  CommandRegistry,
  type CommandContext,
  type CommandContract,
  type CommandDefinition,
  type PipelineScope,
} from '../../../shared/commands';
import { ERROR_CODES, PipeworkError, type ErrorCode } from '../../../shared/errors';
import type { ServerServices } from '../../services';

/** One `mock.command` step, as written (its values are evaluated when the mocked command is called). */
export interface CommandMock {
  command: string;
  when?: unknown;
  thenSetBody?: unknown;
  thenSetVar?: unknown;
  thenError?: unknown;
  hasBody: boolean;
  /** The scope of the test pipeline that declared the mock: thenSetVar sets its vars too. */
  declaredIn: PipelineScope;
}

/** Commands a mock may not replace: the ones that steer the runner or the test itself. */
const NOT_MOCKABLE = new Set(['mock.command', 'test.run']);

export class TestRunRegistry extends CommandRegistry<ServerServices> {
  private readonly mocksByCommand = new Map<string, CommandMock[]>();
  private readonly dispatchers = new Map<string, CommandDefinition<ServerServices>>();

  /**
   * @param real the server's registry
   * @param declared commands a `mock.command` step of the test names literally: they resolve before the
   *   mock is set, so a test can call a command this server lacks (e.g. `mail.send`) once it mocks it.
   */
  constructor(
    private readonly real: CommandRegistry<ServerServices>,
    private readonly declared: ReadonlySet<string> = new Set(),
  ) {
    super();
  }

  override get(name: string): CommandDefinition<ServerServices> | undefined {
    if (this.mocksByCommand.has(name) || this.declared.has(name)) return this.dispatcher(name);
    return this.real.get(name);
  }

  override contracts(): CommandContract[] {
    return this.real.contracts();
  }

  /** Adds a mock for the rest of this test run; later mocks of a command are tried before earlier ones. */
  addMock(mock: CommandMock): void {
    const real = this.real.get(mock.command);
    if (NOT_MOCKABLE.has(mock.command) || real?.contract.controlFlow) {
      throw new PipeworkError('PARAM_INVALID', `The command '${mock.command}' cannot be mocked.`, {
        parameter: 'command',
      });
    }
    const list = this.mocksByCommand.get(mock.command) ?? [];
    list.unshift(mock);
    this.mocksByCommand.set(mock.command, list);
  }

  /** The stand-in for a mocked command: the first mock whose `when` holds answers, else the real command. */
  private dispatcher(name: string): CommandDefinition<ServerServices> {
    let dispatcher = this.dispatchers.get(name);
    if (dispatcher) return dispatcher;
    const real = this.real.get(name);
    const contract: CommandContract = real
      ? { ...real.contract, output: 'any' }
      : {
          name,
          summary: `A mock of '${name}' (this server has no such command).`,
          parameters: {},
          openParameters: true,
          input: 'any',
          output: 'any',
        };
    dispatcher = {
      contract,
      run: (ctx) => {
        const mock = this.mocksByCommand.get(name)?.find((m) => whenHolds(m, ctx));
        if (mock) return answer(mock, ctx);
        if (real) return real.run(ctx);
        throw new PipeworkError(
          'COMMAND_NOT_FOUND',
          `No mock of '${name}' matches this call, and the server has no such command.`,
          { commandName: name },
        );
      },
    };
    this.dispatchers.set(name, dispatcher);
    return dispatcher;
  }
}

/**
 * Evaluates a mock's value with the mocked call visible as `request`: `request.params` (its parameters after
 * evaluation) and `request.input` (its input body). `body`, `vars` and `headers` are the pipeline's.
 */
function evaluateWithCall(ctx: CommandContext<ServerServices>, value: unknown): unknown {
  const saved = ctx.scope.request;
  ctx.scope.request = { params: ctx.params, input: ctx.input };
  try {
    return evaluateDeep(ctx, value);
  } finally {
    ctx.scope.request = saved;
  }
}

function evaluateDeep(ctx: CommandContext<ServerServices>, value: unknown): unknown {
  if (typeof value === 'string') return value.includes('#{') ? ctx.evaluate(value) : value;
  if (Array.isArray(value)) return value.map((v) => evaluateDeep(ctx, v));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = evaluateDeep(ctx, v);
    return out;
  }
  return value;
}

function whenHolds(mock: CommandMock, ctx: CommandContext<ServerServices>): boolean {
  if (mock.when === undefined || mock.when === null || mock.when === '') return true;
  if (typeof mock.when === 'boolean') return mock.when;
  const text = String(mock.when);
  const saved = ctx.scope.request;
  ctx.scope.request = { params: ctx.params, input: ctx.input };
  try {
    const result = ctx.evaluate(text);
    return result === true || result === 'true';
  } finally {
    ctx.scope.request = saved;
  }
}

function answer(mock: CommandMock, ctx: CommandContext<ServerServices>): unknown {
  ctx.log('INFO', `mock of ${mock.command} answered`);
  if (mock.thenSetVar !== undefined && mock.thenSetVar !== null) {
    const vars = evaluateWithCall(ctx, mock.thenSetVar);
    if (typeof vars !== 'object' || vars === null || Array.isArray(vars)) {
      throw new PipeworkError('PARAM_INVALID', `thenSetVar of the mock of '${mock.command}' must be a map.`, {
        parameter: 'thenSetVar',
      });
    }
    Object.assign(ctx.scope.vars, vars);
    // A mock answering inside a nested pipeline (e.g. pipeline.start) also tells the test that declared it.
    if (mock.declaredIn !== ctx.scope) Object.assign(mock.declaredIn.vars, vars);
  }
  if (mock.thenError !== undefined && mock.thenError !== null && mock.thenError !== false) {
    throw mockError(mock, evaluateWithCall(ctx, mock.thenError));
  }
  return mock.hasBody ? (evaluateWithCall(ctx, mock.thenSetBody) ?? null) : ctx.input;
}

/** `thenError`: a message (code UPSTREAM_FAILED, as a failing outside system gives), or `{code, message}`. */
function mockError(mock: CommandMock, value: unknown): PipeworkError {
  const given = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const code = typeof given.code === 'string' && given.code in ERROR_CODES ? given.code : 'UPSTREAM_FAILED';
  const message =
    typeof value === 'string' || typeof value === 'number'
      ? String(value)
      : typeof given.message === 'string'
        ? given.message
        : `The mock of '${mock.command}' failed.`;
  return new PipeworkError(code as ErrorCode, message, { mocked: true });
}
