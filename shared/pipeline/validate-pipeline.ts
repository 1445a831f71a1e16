/** Finds every problem in a pipeline without running it, for the editor, the CLI and a "check" endpoint. */
import type { CommandContract } from '../commands/contract';
import { isPipeworkError } from '../errors';
import { checkBlocks } from './check-blocks';
import { checkParameters } from './check-parameters';
import { didYouMean } from './did-you-mean';
import { locateInParameter, locateInSection } from './locate';
import type { PipelineScript, PipelineSourceKind, PipelineStep, SourcePosition } from './model';
import { parsePipeline } from './parse-pipeline';
import type { PipelineProblem } from './problem';

export type { PipelineProblem } from './problem';

/** What the validator needs of a command registry (`CommandRegistry` fits). */
export interface CommandLookup {
  get(name: string): { contract: CommandContract } | undefined;
  /** Every contract, for "did you mean" suggestions; optional. */
  contracts?(): CommandContract[];
}

/** Finds a syntax error in one template: its message and the offset in the template, or null. */
export type ExpressionChecker = (
  template: string,
) => { message: string; offset: number; code?: string } | null;

export interface ValidateOptions {
  /**
   * Checks the expression syntax of every string value. The PEL module's `compileTemplate` fits once
   * wrapped; a checker that throws a PipeworkError with `details.offset` is accepted as well.
   */
  checkExpression?: ExpressionChecker;
}

function runChecker(
  check: ExpressionChecker,
  text: string,
): { message: string; offset: number; code?: string } | null {
  try {
    return check(text);
  } catch (error) {
    if (!isPipeworkError(error)) throw error;
    const offset = typeof error.details.offset === 'number' ? error.details.offset : 0;
    return { message: error.message, offset };
  }
}

/** Calls `visit` for every string inside a value (walked without recursion), with whether it is the value itself. */
function forEachString(value: unknown, visit: (text: string, topLevel: boolean) => void): void {
  const stack: [unknown, boolean][] = [[value, true]];
  while (stack.length) {
    const [item, top] = stack.pop()!;
    if (typeof item === 'string') visit(item, top);
    else if (Array.isArray(item)) for (let i = item.length - 1; i >= 0; i--) stack.push([item[i], false]);
    else if (item !== null && typeof item === 'object') {
      const values = Object.values(item);
      for (let i = values.length - 1; i >= 0; i--) stack.push([values[i], false]);
    }
  }
}

function expressionProblem(
  found: { message: string; code?: string },
  at: SourcePosition | undefined,
  where: Partial<PipelineProblem>,
): PipelineProblem {
  const code = found.code === 'PEL_EVAL' || found.code === 'LIMIT_EXCEEDED' ? found.code : 'PEL_SYNTAX';
  return { code, severity: 'error', message: found.message, ...where, ...at };
}

function checkSectionExpressions(script: PipelineScript, check: ExpressionChecker): PipelineProblem[] {
  const problems: PipelineProblem[] = [];
  for (const section of ['headers', 'vars'] as const) {
    for (const [name, value] of Object.entries(script[section])) {
      forEachString(value, (text, topLevel) => {
        const found = runChecker(check, text);
        if (!found) return;
        const at = topLevel
          ? locateInSection(script, section, name, found.offset)
          : script.sectionPositions?.[section]?.[name];
        const message = `In ${section} '${name}': ${found.message}`;
        problems.push(expressionProblem({ message, code: found.code }, at, {}));
      });
    }
  }
  return problems;
}

function checkStepExpressions(
  step: PipelineStep,
  contract: CommandContract | undefined,
  check: ExpressionChecker,
): PipelineProblem[] {
  const problems: PipelineProblem[] = [];
  const raw = new Set(contract?.rawParameters ?? []);
  const values: [string, unknown][] = Object.entries(step.params).filter(([name]) => !raw.has(name));
  if (
    step.defaultValue !== undefined &&
    !(contract?.defaultParameter && raw.has(contract.defaultParameter))
  ) {
    values.push(['', step.defaultValue]);
  }
  for (const [name, value] of values) {
    forEachString(value, (text, topLevel) => {
      const found = runChecker(check, text);
      if (!found) return;
      const at = topLevel ? locateInParameter(step, name, found.offset) : step.paramPositions?.[name];
      const label = name === '' ? 'the value' : `parameter '${name}'`;
      problems.push(
        expressionProblem(
          { message: `In ${label} of '${step.command}': ${found.message}`, code: found.code },
          at ?? step.position,
          {
            commandIndex: step.index,
            commandName: step.command,
            ...(name === '' ? {} : { parameter: name }),
          },
        ),
      );
    });
  }
  return problems;
}

/**
 * In YAML, `message: #{body}` is a key with a comment after it, so the value is silently null. Finds the
 * places that look like that: an empty value whose line goes on with ` #{`.
 */
function commentedExpressions(text: string, script: PipelineScript): PipelineProblem[] {
  const lines = text.split('\n');
  const problems: PipelineProblem[] = [];
  const check = (at: SourcePosition | undefined, label: string, where: Partial<PipelineProblem>) => {
    const rest = at ? lines[at.line - 1]?.slice(at.column - 1) : undefined;
    if (!rest || !/^[^:#]*:\s+#\{/.test(rest)) return;
    problems.push({
      code: 'PEL_SYNTAX',
      severity: 'warning',
      message: `${label} is empty: in YAML, ' #' starts a comment. Quote a value that starts with #{, e.g. "#{body}".`,
      ...where,
      ...at,
    });
  };
  for (const section of ['headers', 'vars'] as const) {
    for (const [name, value] of Object.entries(script[section])) {
      if (value === null) check(script.sectionPositions?.[section]?.[name], `In ${section}, '${name}'`, {});
    }
  }
  for (const step of script.steps) {
    const where = { commandIndex: step.index, commandName: step.command };
    if (step.defaultValue === undefined && Object.keys(step.params).length === 0) {
      check(step.position, `The value of '${step.command}'`, where);
    }
    for (const [name, value] of Object.entries(step.params)) {
      if (value === null)
        check(step.paramPositions?.[name], `Parameter '${name}' of '${step.command}'`, {
          ...where,
          parameter: name,
        });
    }
  }
  return problems;
}

function byPosition(a: PipelineProblem, b: PipelineProblem): number {
  return (a.line ?? Infinity) - (b.line ?? Infinity) || (a.column ?? Infinity) - (b.column ?? Infinity);
}

/**
 * Reports what is wrong with a pipeline before it runs: the parse error (and nothing more, as the rest
 * cannot be read), unknown commands, unknown, missing or mistyped parameters, expression syntax, and
 * misplaced block commands; and warns of YAML values that a ` #{` turned into a comment. Problems come
 * sorted by their place in the source.
 */
export function validatePipeline(
  text: string,
  kind: PipelineSourceKind,
  commands: CommandLookup,
  options: ValidateOptions = {},
): PipelineProblem[] {
  let script: PipelineScript;
  try {
    script = parsePipeline(text, kind);
  } catch (error) {
    if (!isPipeworkError(error)) throw error;
    const { line, column, commandIndex, commandName } = error.details;
    const problem: PipelineProblem = { code: error.code, message: error.message, severity: 'error' };
    if (typeof line === 'number') problem.line = line;
    if (typeof column === 'number') problem.column = column;
    if (typeof commandIndex === 'number') problem.commandIndex = commandIndex;
    if (typeof commandName === 'string') problem.commandName = commandName;
    return [problem];
  }
  return validateScript(script, commands, options, kind === 'yaml' ? text : undefined);
}

/**
 * The checks of `validatePipeline` on a script already parsed (the server validates each parsed script once,
 * before any of its steps runs). `yamlText`, when given, adds the warnings that need the source text.
 */
export function validateScript(
  script: PipelineScript,
  commands: CommandLookup,
  options: ValidateOptions = {},
  yamlText?: string,
): PipelineProblem[] {
  const contractOf = (step: PipelineStep) => commands.get(step.command)?.contract;
  const problems: PipelineProblem[] = [...checkBlocks(script.steps, contractOf)];
  if (yamlText !== undefined) problems.push(...commentedExpressions(yamlText, script));
  const check = options.checkExpression;
  if (check) problems.push(...checkSectionExpressions(script, check));
  let names: string[] | undefined;
  for (const step of script.steps) {
    const contract = contractOf(step);
    if (!contract) {
      names ??= (commands.contracts?.() ?? []).flatMap((c) => [c.name, ...(c.aliases ?? [])]);
      problems.push({
        code: 'COMMAND_NOT_FOUND',
        severity: 'error',
        message: `Unknown command '${step.command}'.${didYouMean(step.command, names)}`,
        commandIndex: step.index,
        commandName: step.command,
        ...step.position,
      });
    } else {
      problems.push(...checkParameters(step, contract));
    }
    if (check) problems.push(...checkStepExpressions(step, contract, check));
  }
  return problems.sort(byPosition);
}
