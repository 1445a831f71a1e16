/**
 * Keeps the 'pel' markers of a pipeline model up to date while the user types: debounced, and incremental
 * (each value's analysis is cached by its text, so a keystroke re-analyses only the value it touched).
 */
import type * as Monaco from 'monaco-editor';
import { scanOfModel } from './model-scan';
import { checkScannedPipeline, PelCheckCache, type PelProblem } from './pel-check';
import { pipelineFormOf } from './uri-language';

export const PEL_MARKER_OWNER = 'pel';
/** Quiet time after the last keystroke before checking; short, since a check costs about a millisecond. */
export const PEL_CHECK_DELAY_MS = 40;
/** Longest stretch the check may hold the main thread; a longer first check goes on in the next task. */
export const PEL_CHECK_SLICE_MS = 12;

function toMarker(monaco: typeof Monaco, p: PelProblem): Monaco.editor.IMarkerData {
  return {
    severity: p.severity === 'error' ? monaco.MarkerSeverity.Error : monaco.MarkerSeverity.Warning,
    code: p.code,
    source: 'PEL',
    message: p.message,
    startLineNumber: p.startLine,
    startColumn: p.startColumn,
    endLineNumber: p.endLine,
    endColumn: p.endColumn,
  };
}

/** Starts checking a model's expressions; the returned disposable stops it and clears its markers. */
export function trackPelMarkers(monaco: typeof Monaco, model: Monaco.editor.ITextModel): Monaco.IDisposable {
  const cache = new PelCheckCache();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = () => {
    timer = undefined;
    if (model.isDisposed()) return;
    const language = pipelineFormOf(model.getLanguageId());
    if (!language) {
      monaco.editor.setModelMarkers(model, PEL_MARKER_OWNER, []);
      return;
    }
    const deadline = performance.now() + PEL_CHECK_SLICE_MS;
    const problems = checkScannedPipeline(scanOfModel(model, language).scan, cache, deadline);
    if (problems === null) {
      timer = setTimeout(check, 0);
      return;
    }
    monaco.editor.setModelMarkers(
      model,
      PEL_MARKER_OWNER,
      problems.map((p) => toMarker(monaco, p)),
    );
  };
  const schedule = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(check, PEL_CHECK_DELAY_MS);
  };
  const changes = model.onDidChangeContent(schedule);
  const language = model.onDidChangeLanguage(schedule);
  check();
  return {
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      changes.dispose();
      language.dispose();
      if (!model.isDisposed()) monaco.editor.setModelMarkers(model, PEL_MARKER_OWNER, []);
    },
  };
}
