/**
 * The workbench's runs with pins (docs/runs.md): a pinned step's command is not called; the pinned output is
 * its result, and a log line in its trace says so. Wraps the registry the run uses (the recording one, so
 * the step's message is still noted); nothing in the runner changes.
 */
import { CommandRegistry, type CommandContract, type CommandDefinition } from '../../shared/commands';
import type { Pin } from '../runs/pins';

export const PINNED_LOG = 'Pinned: the output recorded in run';

export class PinningRegistry<S> extends CommandRegistry<S> {
  private readonly wrapped = new Map<string, CommandDefinition<S>>();
  /** The indexes of the steps that used their pin in this run. */
  readonly used = new Set<number>();

  constructor(
    private readonly inner: CommandRegistry<S>,
    private readonly pins: ReadonlyMap<number, Pin>,
  ) {
    super();
  }

  override get(name: string): CommandDefinition<S> | undefined {
    const definition = this.inner.get(name);
    if (!definition || definition.contract.controlFlow || this.pins.size === 0) return definition;
    let wrapped = this.wrapped.get(name);
    if (!wrapped) {
      wrapped = {
        contract: definition.contract,
        run: (ctx) => {
          const pin = this.pins.get(ctx.step.index);
          if (!pin || pin.command !== ctx.step.command) return definition.run(ctx);
          this.used.add(ctx.step.index);
          ctx.log('INFO', `${PINNED_LOG} ${pin.runId} was used; the command did not run.`);
          return structuredClone(pin.output);
        },
      };
      this.wrapped.set(name, wrapped);
    }
    return wrapped;
  }

  override contracts(): CommandContract[] {
    return this.inner.contracts();
  }
}
