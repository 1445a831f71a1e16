/** The commands of the core module: they need nothing but the pipeline itself. */
import type { CommandDefinition } from '../command-definition';
import { exit, finallyCommand, foreach, foreachEnd, ifCommand, ifElse, ifEnd } from './control-flow';
import { wait } from './wait';
import { datetime } from './datetime';
import { error } from './error';
import { assert, evalCommand, test } from './expressions';
import { log } from './log';
import { pipelineValidate, pipeSchema, pipeSchemaV7 } from './schema';
import { set, setBody, setVar } from './set';

/** Every core command, for any registry (server or browser) to register. */
export const coreCommands: CommandDefinition<unknown>[] = [
  log,
  datetime,
  set,
  setBody,
  setVar,
  evalCommand,
  test,
  assert,
  ifCommand,
  ifElse,
  ifEnd,
  foreach,
  foreachEnd,
  exit,
  finallyCommand,
  wait,
  error,
  pipeSchemaV7,
  pipeSchema,
  pipelineValidate,
];
