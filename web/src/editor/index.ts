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
} from './types';
export { convertPipeline } from './convert';
export { languageForMime } from './language';
export { PipelineFormSwitch, type PipelineFormSwitchProps } from './PipelineFormSwitch';

/** The Monaco pipeline editor (YAML or JSON) with schema and PEL checks, completion, hover and format. */
export const PipelineEditor = lazy(() => import('./PipelineEditorView'));

/** A plain Monaco editor for any value (the property view). */
export const CodeEditor = lazy(() => import('./CodeEditorView'));
