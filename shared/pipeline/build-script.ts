/** Turns a parsed document (from YAML, JSON or a URI) into the one pipeline model, checking its shape. */
import { COMMAND_NAME_PATTERN } from '../commands/contract';
import type { PipelineScript, PipelineSourceKind, PipelineStep, ScalarSource, SourcePosition } from './model';
import { quote, syntaxError } from './syntax-error';

/** A path into the document: map keys and list indexes. */
export type DocumentPath = readonly (string | number)[];

/** What a front end knows about where things are in its source. */
export interface SourceLocator {
  /** Where the key of the map entry at `path` starts. */
  keyAt(path: DocumentPath): SourcePosition | undefined;
  /** Where the value at `path` starts (the key's position when the value is empty). */
  valueAt(path: DocumentPath): SourcePosition | undefined;
  /** The source of the string value at `path`, for offset mapping. */
  scalarAt(path: DocumentPath): ScalarSource | undefined;
}

const SECTIONS = ['headers', 'vars', 'pipeline', 'body'] as const;

type Json = Record<string, unknown>;

function isMap(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null || value === undefined) return 'empty';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map';
  return `the ${typeof value} ${quote(String(value))}`;
}

class ScriptBuilder {
  constructor(
    private readonly loc: SourceLocator,
    private readonly source: PipelineSourceKind,
  ) {}

  /** The value position at `path`, or the nearest enclosing one the source knows. */
  valueAt(path: DocumentPath): SourcePosition | undefined {
    for (let n = path.length; n >= 0; n--) {
      const at = this.loc.valueAt(path.slice(0, n));
      if (at) return at;
    }
    return undefined;
  }

  keyAt(path: DocumentPath): SourcePosition | undefined {
    return this.loc.keyAt(path) ?? this.valueAt(path);
  }

  section(root: Json, name: 'headers' | 'vars'): Json {
    const value = root[name];
    if (value === undefined || value === null) return {};
    if (!isMap(value)) {
      throw syntaxError(
        `Section '${name}' must be a map of names to values, not ${kindOf(value)}`,
        this.valueAt([name]),
      );
    }
    return value;
  }

  positions(section: Json, name: string): Record<string, SourcePosition> {
    const out: Record<string, SourcePosition> = {};
    for (const key of Object.keys(section)) {
      const at = this.loc.valueAt([name, key]);
      if (at) out[key] = at;
    }
    return out;
  }

  sources(section: Json, name: string): Record<string, ScalarSource> {
    const out: Record<string, ScalarSource> = {};
    for (const key of Object.keys(section)) {
      const source = typeof section[key] === 'string' ? this.loc.scalarAt([name, key]) : undefined;
      if (source) out[key] = source;
    }
    return out;
  }

  step(item: unknown, index: number): PipelineStep {
    const path = ['pipeline', index];
    let command: string;
    let value: unknown = null;
    let position: SourcePosition | undefined;
    if (typeof item === 'string') {
      command = item;
      position = this.loc.valueAt(path);
    } else if (isMap(item)) {
      const keys = Object.keys(item);
      if (keys.length !== 1) {
        const found = keys.length ? `found ${keys.map((k) => quote(k)).join(', ')}` : 'found none';
        throw syntaxError(
          `Pipeline item ${index + 1} must have exactly one key, the command name`,
          this.valueAt(path),
          {
            hint:
              keys.length > 1 && this.source === 'yaml'
                ? `${found}; are the parameters indented below the command?`
                : found,
            details: { commandIndex: index },
          },
        );
      }
      command = keys[0]!;
      value = item[command];
      position = this.keyAt([...path, command]);
    } else {
      throw syntaxError(
        `Pipeline item ${index + 1} must be a command name or a map from one command name to its parameters, not ${kindOf(item)}`,
        this.valueAt(path),
        { details: { commandIndex: index } },
      );
    }
    const written = command;
    command = withoutVersion(command);
    if (!COMMAND_NAME_PATTERN.test(command)) {
      throw syntaxError(`Invalid command name ${quote(written)}`, position ?? this.valueAt(path), {
        hint: "names are dotted lower case, letters and digits only, e.g. 'property.list'",
        details: { commandIndex: index, commandName: command },
      });
    }
    const step: PipelineStep = { index, command, params: {} };
    if (position) step.position = position;
    const paramPositions: Record<string, SourcePosition> = {};
    const paramSources: Record<string, ScalarSource> = {};
    const note = (name: string, valuePath: DocumentPath, v: unknown) => {
      const at = this.loc.valueAt(valuePath);
      if (at) paramPositions[name] = at;
      const source = typeof v === 'string' ? this.loc.scalarAt(valuePath) : undefined;
      if (source) paramSources[name] = source;
    };
    if (isMap(value)) {
      step.params = value;
      for (const name of Object.keys(value)) note(name, [...path, written, name], value[name]);
    } else if (value !== null && value !== undefined) {
      step.defaultValue = value;
      note('', [...path, written], value);
    }
    step.paramPositions = paramPositions;
    if (Object.keys(paramSources).length) step.paramSources = paramSources;
    return endOfForeach(step);
  }
}

/**
 * Checks the shape of a parsed script (sections, items, names) and builds the model. Every form goes
 * through here, so YAML, JSON and URI give equal models and equal error messages.
 */
export function buildScript(root: unknown, loc: SourceLocator, source: PipelineSourceKind): PipelineScript {
  const b = new ScriptBuilder(loc, source);
  if (root === null || root === undefined) {
    throw syntaxError(
      'The script is empty',
      { line: 1, column: 1 },
      { hint: 'a pipeline needs at least one command' },
    );
  }
  if (!isMap(root)) {
    throw syntaxError(
      `A pipeline script must be a map with the sections headers, vars, pipeline and body, not ${kindOf(root)}`,
      b.valueAt([]),
    );
  }
  for (const key of Object.keys(root)) {
    if (!(SECTIONS as readonly string[]).includes(key)) {
      throw syntaxError(`Unknown section ${quote(key)}`, b.keyAt([key]), {
        hint: 'the sections are headers, vars, pipeline and body',
      });
    }
  }
  const headers = b.section(root, 'headers');
  for (const [name, value] of Object.entries(headers)) {
    // onError / onCommandError take the JSON form of the error-handling guide: {"action": "RETRY", ...}.
    const policy = (name === 'onError' || name === 'onCommandError') && !Array.isArray(value);
    if (typeof value === 'object' && value !== null && !policy) {
      throw syntaxError(
        `Header ${quote(name)} must be a text value, not ${kindOf(value)}`,
        b.valueAt(['headers', name]),
      );
    }
  }
  const vars = b.section(root, 'vars');
  const list = root.pipeline;
  if (list === undefined || list === null || (Array.isArray(list) && list.length === 0)) {
    const at = list === undefined ? { line: 1, column: 1 } : b.keyAt(['pipeline']);
    throw syntaxError(`Section 'pipeline' is ${list === undefined ? 'missing' : 'empty'}`, at, {
      hint: 'a pipeline needs at least one command',
    });
  }
  if (!Array.isArray(list)) {
    throw syntaxError(
      `Section 'pipeline' must be a list of commands, not ${kindOf(list)}`,
      b.valueAt(['pipeline']),
    );
  }
  const steps = list.map((item, index) => b.step(item, index));
  const script: PipelineScript = {
    source,
    headers,
    vars,
    steps,
    body: root.body === undefined ? null : root.body,
    sectionPositions: { headers: b.positions(headers, 'headers'), vars: b.positions(vars, 'vars') },
    sectionSources: { headers: b.sources(headers, 'headers'), vars: b.sources(vars, 'vars') },
  };
  const bodyAt = Object.hasOwn(root, 'body') ? loc.valueAt(['body']) : undefined;
  if (bodyAt) script.sectionPositions!.body = bodyAt;
  return script;
}

/**
 * `foreach` with only its deprecated `end` parameter (`- foreach:\n    end:`, as the reference's email guide
 * writes it) is the end of a loop: the model says `foreach.end`, so the runner, the validator and the flow
 * view see one form.
 */
function endOfForeach(step: PipelineStep): PipelineStep {
  const names = Object.keys(step.params);
  if (step.command !== 'foreach' || names.length !== 1 || names[0] !== 'end') return step;
  const end = step.params.end;
  if (end !== null && end !== undefined && end !== '' && end !== true) return step;
  return { ...step, command: 'foreach.end', params: {}, paramPositions: {}, paramSources: undefined };
}

/**
 * A command name with the reference's version suffix (`log:v3`, guides/commands_pipelines/40_command_versioning.md)
 * names that command: a version is the highest one to use, falling back to the next lower one, and every
 * command here has the one version v1, so any `:v<n>` (n ≥ 1) runs it. `:v0` and other suffixes stay invalid.
 */
export function withoutVersion(command: string): string {
  const versioned = /^([^:]+):v[1-9]\d{0,3}$/.exec(command);
  return versioned ? versioned[1]! : command;
}
