/**
 * Keeps our validator's markers ('pipework') on a pipeline model while the user types: the text goes to the
 * worker a moment after the last keystroke, and only the newest answer is shown. Expression problems are left
 * to the 'pel' markers, which place them under the exact characters; everything else shows here, errors red.
 */
import type * as Monaco from 'monaco-editor';
import type { PipelineProblem } from '../../../shared/pipeline';
import { pipelineFormOf } from './uri-language';
import { registerRevalidator, validateInWorker } from './validator-client';

export const VALIDATOR_MARKER_OWNER = 'pipework';
/** Quiet time after the last keystroke before the text goes to the worker. */
export const VALIDATE_DELAY_MS = 30;

const LEFT_TO_PEL = new Set(['PEL_SYNTAX', 'PEL_EVAL']);
const NAME_CHAR = /[\w.$-]/;

/** The marker's end: the end of the name that starts at the problem's column (at least one character). */
function endColumn(model: Monaco.editor.ITextModel, line: number, column: number): number {
  const text = model.getLineContent(line);
  let end = column - 1;
  if (text[end] === '"' || text[end] === "'") end++;
  while (end < text.length && NAME_CHAR.test(text[end]!)) end++;
  return Math.max(end + 1, column + 1);
}

function toMarker(
  monaco: typeof Monaco,
  model: Monaco.editor.ITextModel,
  p: PipelineProblem,
): Monaco.editor.IMarkerData {
  const line = Math.min(Math.max(p.line ?? 1, 1), model.getLineCount());
  const column = Math.max(p.column ?? 1, 1);
  return {
    severity: p.severity === 'error' ? monaco.MarkerSeverity.Error : monaco.MarkerSeverity.Warning,
    code: p.code,
    source: 'Pipework',
    message: p.message,
    startLineNumber: line,
    startColumn: column,
    endLineNumber: line,
    endColumn: endColumn(model, line, column),
  };
}

/** Starts validating a model; the returned disposable stops it and clears its markers. */
export function trackValidatorMarkers(
  monaco: typeof Monaco,
  model: Monaco.editor.ITextModel,
): Monaco.IDisposable {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;
  const uri = model.uri.toString();
  const check = () => {
    timer = undefined;
    if (model.isDisposed()) return;
    const kind = pipelineFormOf(model.getLanguageId());
    if (!kind) {
      monaco.editor.setModelMarkers(model, VALIDATOR_MARKER_OWNER, []);
      return;
    }
    const version = model.getVersionId();
    const id = ++asked;
    void validateInWorker(uri, model.getValue(), kind).then((result) => {
      if (id !== asked || model.isDisposed() || model.getVersionId() !== version) return;
      const shown = result.problems.filter((p) => !LEFT_TO_PEL.has(p.code));
      monaco.editor.setModelMarkers(
        model,
        VALIDATOR_MARKER_OWNER,
        shown.map((p) => toMarker(monaco, model, p)),
      );
    });
  };
  const schedule = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(check, VALIDATE_DELAY_MS);
  };
  const changes = model.onDidChangeContent(schedule);
  const language = model.onDidChangeLanguage(schedule);
  const withdraw = registerRevalidator(uri, schedule);
  check();
  return {
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      changes.dispose();
      language.dispose();
      withdraw();
      if (!model.isDisposed()) monaco.editor.setModelMarkers(model, VALIDATOR_MARKER_OWNER, []);
    },
  };
}
