/**
 * The lines and `#{`-scan of a pipeline model, made once per version of its text: the PEL markers and the
 * completion both ask for them on each keystroke, and a check sliced over several tasks asks again per slice.
 */
import type * as Monaco from 'monaco-editor';
import { scanPipeline, type ScanResult } from './pel-scan';
import type { PipelineForm } from './types';

export interface ModelScan {
  version: number;
  form: PipelineForm;
  lines: string[];
  scan: ScanResult;
}

const scans = new WeakMap<Monaco.editor.ITextModel, ModelScan>();

export function scanOfModel(model: Monaco.editor.ITextModel, form: PipelineForm): ModelScan {
  const version = model.getVersionId();
  const known = scans.get(model);
  if (known?.version === version && known.form === form) return known;
  const lines = model.getLinesContent();
  const fresh = { version, form, lines, scan: scanPipeline(lines, form) };
  scans.set(model, fresh);
  return fresh;
}
