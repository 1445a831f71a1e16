/**
 * The one place that knows whether the workbench holds unsaved edits, for the actions that would drop them:
 * signing out (asked here) and closing or reloading the tab (the browser's own question, via beforeunload).
 */
import { useEffect } from 'react';

let hasUnsaved: () => boolean = () => false;

/** Whether the user agrees to drop unsaved edits, asked only when there are some. */
export function mayDropUnsaved(question: string): boolean {
  return !hasUnsaved() || window.confirm(question);
}

/**
 * While mounted: `check` tells whether there are unsaved edits; the tab asks before it closes or reloads with
 * some pending.
 */
export function useUnsavedGuard(check: () => boolean): void {
  useEffect(() => {
    hasUnsaved = check;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!check()) return;
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      if (hasUnsaved === check) hasUnsaved = () => false;
    };
  }, [check]);
}
