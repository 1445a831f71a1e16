/** The set of commands a server offers, looked up by name or alias. */
import { PipeworkError } from '../errors';
import type { CommandDefinition } from './command-definition';
import { COMMAND_NAME_PATTERN, type CommandContract } from './contract';

export class CommandRegistry<S = unknown> {
  private readonly byName = new Map<string, CommandDefinition<S>>();
  private readonly primary: CommandDefinition<S>[] = [];

  constructor(definitions: Iterable<CommandDefinition<S>> = []) {
    for (const definition of definitions) this.register(definition);
  }

  /** Adds a command; its name and aliases must be valid and not taken. */
  register(definition: CommandDefinition<S>): this {
    const { contract } = definition;
    for (const name of [contract.name, ...(contract.aliases ?? [])]) {
      if (!COMMAND_NAME_PATTERN.test(name)) throw new Error(`Invalid command name '${name}'`);
      if (this.byName.has(name)) throw new Error(`Command '${name}' is registered twice`);
      this.byName.set(name, definition);
    }
    this.primary.push(definition);
    return this;
  }

  get(name: string): CommandDefinition<S> | undefined {
    return this.byName.get(name);
  }

  /** The command, or COMMAND_NOT_FOUND (through `get`, so a registry that overrides `get` needs nothing more). */
  require(name: string): CommandDefinition<S> {
    const definition = this.get(name);
    if (!definition)
      throw new PipeworkError('COMMAND_NOT_FOUND', `Unknown command '${name}'.`, { commandName: name });
    return definition;
  }

  /** Every command's contract, sorted by name. */
  contracts(): CommandContract[] {
    return this.primary.map((d) => d.contract).sort((a, b) => a.name.localeCompare(b.name));
  }
}
