/** What the workbench's features may ask of the shell: open a pipeline, insert into the editor, run tests. */
import { createContext, useContext } from 'react';
import type { StepToInsert } from '../editor/insert-step';

export interface Workbench {
  /** Loads the pipeline property `key` into the editor document (and the route). */
  openPipeline(key: string): void;
  /** Adds a step to the open pipeline after the cursor's step (the command reference's "insert into editor"). */
  insertIntoEditor(step: StepToInsert): void;
  /** Runs the app tests matching `pattern` (optional: not every shell offers it). */
  runTests?(pattern: string): void;
}

const noWorkbench: Workbench = {
  openPipeline: () => undefined,
  insertIntoEditor: () => undefined,
};

export const WorkbenchContext = createContext<Workbench>(noWorkbench);

export function useWorkbench(): Workbench {
  return useContext(WorkbenchContext);
}
