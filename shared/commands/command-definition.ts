/** A command is its contract plus the function that runs it; `defineCommand` is the one way to make one. */
import type { Principal } from '../auth/principal';
import type { CommandContract } from './contract';

export type LogLevel = 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

/** The mutable scopes of a running pipeline, as PEL sees them. */
export interface PipelineScope {
  body: unknown;
  vars: Record<string, unknown>;
  headers: Record<string, unknown>;
  request?: unknown;
  exception?: unknown;
}

/** Everything a command may use while it runs. `S` is the server's services (store, IAM, mail, ...). */
export interface CommandContext<S = unknown> {
  /** Parameters after evaluation and validation; the common ones (`if`, `input`, `output`, `onError`) removed. */
  params: Record<string, unknown>;
  /** The parameters exactly as written (templates unevaluated), for commands with `rawParameters`. */
  rawParams: Record<string, unknown>;
  /** The input body: the current body, or what the `input` parameter selected. */
  input: unknown;
  /** The pipeline's scopes; commands may read and change them. */
  scope: PipelineScope;
  /** Who the pipeline runs as (null only for anonymous internal runs). */
  principal: Principal | null;
  /** Switches the identity for the rest of the pipeline (used by `iam.run.as`). */
  setPrincipal(principal: Principal): void;
  services: S;
  /** The commands of this server (for schema generation and validation). */
  commands: CommandCatalog;
  /** Records a log line in the server log and in the step's trace. */
  log(level: LogLevel, message: string): void;
  /** Evaluates an expression (with or without `#{}`) in the current scope, with the pipeline's utilities. */
  evaluate(expression: string): unknown;
  /**
   * A signal aborted when the pipeline passes its time limit or the caller goes away, for commands that
   * wait on I/O (made on first call: most commands never need one).
   */
  abortSignal(): AbortSignal;
  step: { index: number; command: string };
  /** Ends the pipeline after this command (its result written first), as `exit` does; `finally` still runs. */
  exit?(): void;
}

/** What a command may know of the other commands: their contracts. */
export interface CommandCatalog {
  get(name: string): { contract: CommandContract } | undefined;
  contracts(): CommandContract[];
}

export type CommandHandler<S = unknown> = (ctx: CommandContext<S>) => unknown;

export interface CommandDefinition<S = unknown> {
  contract: CommandContract;
  run: CommandHandler<S>;
}

/** Declares a command: one file, one call. */
export function defineCommand<S = unknown>(
  contract: CommandContract,
  run: CommandHandler<S>,
): CommandDefinition<S> {
  return { contract, run };
}
