/** What every verb's action gets: the streams, the output for people or --json, and the server settings. */
import type { Command } from 'commander';
import type { CliSettings } from './cli-client';
import { Output, type Streams } from './output';
import { resolveSettings, type GlobalOptions } from './settings';

export interface VerbContext {
  streams: Streams;
  out: Output;
  options: GlobalOptions;
  settings(): CliSettings;
}

/** The context of the verb being run: its global options (--json, --url, --user) read from the command. */
export function contextOf(streams: Streams, command: Command): VerbContext {
  const options = command.optsWithGlobals<GlobalOptions>();
  return {
    streams,
    out: new Output(streams, options.json === true),
    options,
    settings: () => resolveSettings(streams.env, options),
  };
}

/* eslint-disable @typescript-eslint/no-explicit-any -- commander hands actions their arguments untyped */
/** A verb's work: it returns its exit code (0 when it returns nothing). */
export type VerbAction = (ctx: VerbContext, ...args: any[]) => Promise<number | void>;
/** Turns a verb's work into a commander action (the context built from the command's options). */
export type ActionWrapper = (fn: VerbAction) => (...args: any[]) => Promise<void>;
/* eslint-enable @typescript-eslint/no-explicit-any */
/** Adds a group of verbs to the program. */
export type Register = (program: Command, action: ActionWrapper) => void;
