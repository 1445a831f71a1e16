/** The Monaco pipeline editor (loaded lazily through index.ts): schema and PEL checks, completion, Ctrl+Enter. */
import Editor, { type OnMount } from '@monaco-editor/react';
import type * as Monaco from 'monaco-editor';
import { useEffect, useRef } from 'react';
import { publishCursorLine } from './cursor-lines';
import { planStepInsertion } from './insert-step';
import { applyPipelineSchema, monaco } from './monaco-setup';
import { trackPelMarkers } from './pel-markers';
import { trackValidatorMarkers } from './validator-markers';
import { loadPipelineSchema } from './schema';
import type { PipelineEditorHandle, PipelineEditorProps } from './types';
import { PIPELINE_URI_LANGUAGE } from './uri-language';

const EDITOR_OPTIONS: Monaco.editor.IStandaloneEditorConstructionOptions = {
  minimap: { enabled: false },
  fontSize: 13,
  tabSize: 2,
  insertSpaces: true,
  scrollBeyondLastLine: false,
  automaticLayout: true,
  quickSuggestions: { other: true, comments: false, strings: true },
  suggestOnTriggerCharacters: true,
  fixedOverflowWidgets: true,
  'semanticHighlighting.enabled': false,
  // The number of the line after a final newline is drawn in full colour (dimmed it fails contrast checks).
  renderFinalNewline: 'on',
};

/** Pixels: enough for a short pipeline and the suggest widget. */
const MIN_HEIGHT = 320;
/** Monaco's box fills ours, whatever height our container gives (a percentage of an auto height is 0). */
const FILL_PARENT = { style: { display: 'flex', position: 'absolute', inset: 0 } };

function handleOf(
  editor: Monaco.editor.IStandaloneCodeEditor,
  form: () => PipelineEditorProps['language'],
): PipelineEditorHandle {
  return {
    revealPosition(line, column) {
      editor.setPosition({ lineNumber: line, column });
      editor.revealPositionInCenterIfOutsideViewport({ lineNumber: line, column });
      editor.focus();
    },
    insertStep(step) {
      const model = editor.getModel();
      const position = editor.getPosition();
      if (!model || !position) return false;
      const cursor = { offset: model.getOffsetAt(position), line: position.lineNumber };
      const plan = planStepInsertion(model.getValue(), form(), cursor, step);
      if (!plan) return false;
      const from = model.getPositionAt(plan.offset);
      const range = plan.replaceAll
        ? model.getFullModelRange()
        : new monaco.Range(from.lineNumber, from.column, from.lineNumber, from.column);
      editor.pushUndoStop();
      editor.executeEdits('insert-step', [{ range, text: plan.text, forceMoveMarkers: true }]);
      editor.pushUndoStop();
      const at = model.getPositionAt(plan.cursor);
      editor.setPosition(at);
      editor.revealPositionInCenterIfOutsideViewport(at);
      editor.focus();
      return true;
    },
    focus: () => editor.focus(),
  };
}

/**
 * Tracks the PEL and validator markers of whichever model the editor shows (the path, hence the model, may
 * change), and publishes its cursor line (for the flow view).
 */
function followModel(editor: Monaco.editor.IStandaloneCodeEditor): Monaco.IDisposable {
  let tracking: Monaco.IDisposable | null = null;
  const track = () => {
    tracking?.dispose();
    const model = editor.getModel();
    tracking = null;
    if (!model) return;
    const pel = trackPelMarkers(monaco, model);
    const ours = trackValidatorMarkers(monaco, model);
    tracking = { dispose: () => (pel.dispose(), ours.dispose()) };
  };
  track();
  const onModel = editor.onDidChangeModel(track);
  const onCursor = editor.onDidChangeCursorPosition((event) => {
    const model = editor.getModel();
    if (model) publishCursorLine(model.uri.toString(), event.position.lineNumber);
  });
  return {
    dispose() {
      onModel.dispose();
      onCursor.dispose();
      tracking?.dispose();
    },
  };
}

export default function PipelineEditorView(props: PipelineEditorProps) {
  const { value, onChange, language, schema, fetchSchema, height } = props;
  const path = props.path ?? `pipeline.pi.${language}`;
  const monacoLanguage = language === 'uri' ? PIPELINE_URI_LANGUAGE : language;
  const latest = useRef(props);
  const disposables = useRef<Monaco.IDisposable[]>([]);

  useEffect(() => {
    latest.current = props;
  });

  useEffect(() => {
    if (schema) {
      applyPipelineSchema(schema);
      return;
    }
    let live = true;
    loadPipelineSchema(fetchSchema).then(
      (loaded) => live && applyPipelineSchema(loaded),
      (error: unknown) => console.warn(error),
    );
    return () => {
      live = false;
    };
  }, [schema, fetchSchema]);

  useEffect(() => () => disposables.current.splice(0).forEach((d) => d.dispose()), []);

  const onMount: OnMount = (editor) => {
    disposables.current.push(followModel(editor));
    editor.addAction({
      id: 'pipework.run',
      label: 'Run pipeline',
      keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter],
      run: () => latest.current.onRun?.(),
    });
    // Shift+Alt+F formats on every platform (Monaco's own Linux binding is Ctrl+Shift+I).
    editor.addCommand(monaco.KeyMod.Shift | monaco.KeyMod.Alt | monaco.KeyCode.KeyF, () => {
      void editor.getAction('editor.action.formatDocument')?.run();
    });
    latest.current.onEditorReady?.(handleOf(editor, () => latest.current.language));
  };

  return (
    <div
      className="pipeline-editor"
      data-testid="pipeline-editor"
      // Never collapsed, even in a container that gives it no height.
      style={{ position: 'relative', height: height ?? '100%', minHeight: props.minHeight ?? MIN_HEIGHT }}
    >
      <Editor
        value={value}
        language={monacoLanguage}
        path={path}
        options={EDITOR_OPTIONS}
        onMount={onMount}
        onChange={(next) => onChange(next ?? '')}
        loading={<p className="editor-loading">Loading the editor…</p>}
        wrapperProps={FILL_PARENT}
      />
    </div>
  );
}
