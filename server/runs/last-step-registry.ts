/**
 * The registry a recorded run runs on: the real commands, each noting the scope it is called with, so that
 * a failed run keeps the message its failed step saw (what "re-run from the failed step" starts with). It
 * keeps a reference, not a copy: the message is copied only when the run fails.
 */
import {
  CommandRegistry,
  type CommandContract,
  type CommandDefinition,
  type PipelineScope,
} from '../../shared/commands';

export class LastStepRegistry<S> extends CommandRegistry<S> {
  lastIndex = -1;
  lastScope: PipelineScope | null = null;
  private readonly wrapped = new Map<string, CommandDefinition<S>>();

  constructor(private readonly real: CommandRegistry<S>) {
    super();
  }

  override get(name: string): CommandDefinition<S> | undefined {
    const definition = this.real.get(name);
    if (!definition || definition.contract.controlFlow) return definition;
    let wrapped = this.wrapped.get(name);
    if (!wrapped) {
      wrapped = {
        contract: definition.contract,
        run: (ctx) => {
          this.lastIndex = ctx.step.index;
          this.lastScope = ctx.scope;
          return definition.run(ctx);
        },
      };
      this.wrapped.set(name, wrapped);
    }
    return wrapped;
  }

  override contracts(): CommandContract[] {
    return this.real.contracts();
  }
}
