/** The one description of a command, from which validation, the v7 schema, docs, CLI help and permissions come. */
import type { JsonSchema } from './json-schema';

/** What a command takes as input body or gives as output. */
export type ValueKind = 'none' | 'json' | 'text' | 'bytes' | 'any';

/** `read`: reads or computes only; `write`: changes stored data, sessions or another system. */
export type CommandEffect = 'read' | 'write';

/**
 * Who may run a command on a new installation: every signed-in user (`ROLE_USER`), developers
 * (`ROLE_DEVELOPER`), or admins only. The built-in roles are made from it (server/iam/built-in-roles.ts).
 */
export type CommandAudience = 'user' | 'developer' | 'admin';

export const COMMAND_AUDIENCES: readonly CommandAudience[] = ['user', 'developer', 'admin'];

/** Commands that steer the runner rather than transform the body. */
export type ControlFlowRole = 'if' | 'if.else' | 'if.end' | 'foreach' | 'foreach.end' | 'exit' | 'finally';

export interface CommandExample {
  title: string;
  /** A pipeline in YAML that uses the command. */
  pipeline: string;
}

/**
 * How a command is streamed when called directly over `/api/v3/command/<name>` (the server's streamed command
 * routes serve exactly the commands that declare it): the body and the answer move chunk by chunk, never held
 * whole. Inside a pipeline the command runs as any other.
 */
export interface CommandStreaming {
  /**
   * What a direct `POST` may stream into storage as it arrives: `raw` a body of any type but multipart,
   * `multipart` each `file` part of a multipart body.
   */
  input?: readonly ('raw' | 'multipart')[];
  /** A direct `GET` answered chunk by chunk with backpressure (`chunks`), or also with HTTP ranges (`ranges`). */
  output?: 'chunks' | 'ranges';
}

export interface CommandContract {
  /** Dotted lower-case name, e.g. `property.list`. */
  name: string;
  /** Other names that call the same command (e.g. `body.set` for `set.body`). */
  aliases?: string[];
  /** One line, shown in lists and completion. */
  summary: string;
  /** Longer text for the reference (optional). */
  description?: string;
  /**
   * Parameters as JSON Schema properties. Values written as templates (`#{...}`) are evaluated first,
   * then validated against these schemas. The common parameters (`if`, `input`, `output`, `onError`,
   * `id`, `description`) are added by the registry and need not be listed.
   */
  parameters: Record<string, JsonSchema>;
  /** Names of required parameters. */
  required?: string[];
  /**
   * Groups of parameters of which each needs at least one given, e.g. `[['path', 'key']]` (the real product's
   * name beside its deprecated one). The v7 schema writes each group as an `anyOf` of `required`.
   */
  requiredOneOf?: string[][];
  /** Accepts parameters it does not declare: only for stand-ins, e.g. a test's mock of a command this server lacks. */
  openParameters?: boolean;
  /** The parameter that `- name: value` sets. */
  defaultParameter?: string;
  /** Parameters whose values are passed on as written, not evaluated (e.g. an expression the command runs itself). */
  rawParameters?: string[];
  input: ValueKind;
  output: ValueKind;
  /**
   * Whether the command changes anything (stored data, other systems, sessions) or only reads and computes.
   * Only `read` commands run over `GET /api/v3/command/<name>`; a missing effect counts as `write`. Every
   * registered command sets it (a test checks).
   */
  effect?: CommandEffect;
  /** Who may run it by default; every registered command sets it (a test checks). */
  audience?: CommandAudience;
  /** The role a caller needs; by default `CAN_PIPE_<name>`. */
  permission?: string;
  /** Marks runner-steering commands (`if`, `foreach`, ...). */
  controlFlow?: ControlFlowRole;
  examples?: CommandExample[];
  /** Its direct calls streamed (attachments, drive files); absent for the buffered command route. */
  streaming?: CommandStreaming;
}

/** The permission needed for a command. */
export function permissionOf(contract: CommandContract): string {
  return contract.permission ?? `CAN_PIPE_${contract.name}`;
}

/** A command name is dotted lower case: letters and digits in each part, no underscores or spaces. */
export const COMMAND_NAME_PATTERN = /^[a-z][a-z0-9]*(\.[a-z][a-z0-9]*)*$/;

/** Whether the command only reads: a missing effect counts as a write. */
export function isReadOnly(contract: CommandContract): boolean {
  return contract.effect === 'read';
}
