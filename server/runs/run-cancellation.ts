/** A run's cancellation: the caller's (e.g. the client went away) joined with the run history's cancel. */
import type { Cancellation } from '../../shared/runner';

export class RunCancellation implements Cancellation {
  private listeners: (() => void)[] = [];
  private own = false;

  constructor(private readonly outer: Cancellation | undefined) {}

  get cancelled(): boolean {
    return this.own || (this.outer?.cancelled ?? false);
  }

  /** Whether the run history (not the caller) cancelled it. */
  get cancelledByRequest(): boolean {
    return this.own;
  }

  onCancel(listener: () => void): void {
    if (this.own) {
      listener();
      return;
    }
    this.listeners.push(listener);
    this.outer?.onCancel(listener);
  }

  cancel(): void {
    if (this.own) return;
    this.own = true;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }
}
