/** The editor feature's public types: what the shell and the property view code against. */
import type { StepToInsert } from './insert-step';

export type { StepToInsert } from './insert-step';

export type PipelineLanguage = 'yaml' | 'json';
export type PipelineForm = 'yaml' | 'json' | 'uri';

/** What the shell can do with a mounted pipeline editor (jump to an error, insert a command, focus). */
export interface PipelineEditorHandle {
  /** Moves the cursor to a 1-based line and column, scrolls it into view and focuses the editor. */
  revealPosition(line: number, column: number): void;
  /**
   * Inserts a step as a new item of the pipeline list after the step the cursor is in (else at the list's end),
   * indented like its neighbours, as one undoable edit; false when the form has no place for it (URI).
   */
  insertStep(step: StepToInsert): boolean;
  focus(): void;
}

export interface PipelineEditorProps {
  value: string;
  onChange(value: string): void;
  /** YAML or JSON (checked against the schema and for PEL), or the one-line URI form (checked for PEL). */
  language: PipelineLanguage | 'uri';
  /** The model's file name (e.g. 'pipeline.pi.yaml'); it decides which schema applies. */
  path?: string;
  /** Ctrl+Enter (Cmd+Enter). */
  onRun?(): void;
  onEditorReady?(handle: PipelineEditorHandle): void;
  /** The pipeline schema, when the caller already has it; otherwise `fetchSchema` or the public endpoint. */
  schema?: object;
  /** Fetches the pipeline schema (e.g. with the session's token); default: GET /api/v3/command:pipe.schema.v7. */
  fetchSchema?(): Promise<object>;
  /** Height of the editor; default 100% of its container. */
  height?: number | string;
  /** Pixels the editor never shrinks below; default 320 (a container that sizes it may ask for less). */
  minHeight?: number;
}

export interface CodeEditorProps {
  value: string;
  /** A Monaco language id (see `languageForMime`). */
  language: string;
  readOnly?: boolean;
  onChange?(value: string): void;
  height?: number | string;
}
