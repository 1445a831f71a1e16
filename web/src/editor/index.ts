/**
 * The pipeline editor feature. Monaco and its languages are a separate chunk: the lazy components load it
 * only when first rendered, so the sign-in page and the property tree never wait for it.
 */
import { lazy } from 'react';

export type {
  CodeEditorProps,
  PipelineEditorHandle,
  PipelineEditorProps,
  PipelineForm,
  PipelineLanguage,
  StepToInsert,
} from './types';
export { convertPipeline } from './convert';
export { languageForMime } from './language';
export { loadPipelineSchema } from './schema';
export { onValidated, revalidate } from './validator-client';
export { onCursorLine } from './cursor-lines';
export type { FlowStep, ValidatedMessage } from './validator-protocol';
export { PipelineFormSwitch, type PipelineFormSwitchProps } from './PipelineFormSwitch';

const loadPipelineEditor = () => import('./PipelineEditorView');

/** The Monaco pipeline editor (YAML or JSON) with schema and PEL checks, completion, hover and format. */
export const PipelineEditor = lazy(loadPipelineEditor);

/**
 * Starts loading the editor's chunk (Monaco) without showing it, e.g. when "Sign in" is pressed, so that the
 * editor is ready sooner after the token arrives. Safe to call more than once.
 */
export function preloadPipelineEditor(): void {
  void loadPipelineEditor().catch(() => {});
}

/** A plain Monaco editor for any value (the property view). */
export const CodeEditor = lazy(() => import('./CodeEditorView'));

/** Monaco's read-only diff editor (the history panel). */
export const DiffEditor = lazy(() => import('./DiffEditorView'));
export type { DiffEditorProps } from './DiffEditorView';
