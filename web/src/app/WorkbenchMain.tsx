/**
 * The body of the workbench: the sidebar, the document toolbar, the editor and the run panel (or the app
 * views, or the Runs view). It owns the document, its runs and the editor handle, and offers them to the
 * sidebar's features (workbench context).
 */
import { Suspense, lazy, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { PipelineEditor, type PipelineEditorHandle, type PipelineForm } from '../editor';
import { AppViews } from '../apps';
import { ConflictDialog } from '../document/ConflictDialog';
import { DocumentBar } from '../document/DocumentBar';
import { useUnsavedGuard } from '../document/unsaved-guard';
import { usePipelineDocument } from '../document/useDocument';
import { HistoryDialog } from '../history';
import { RunPanel } from '../run/RunPanel';
import { usePipelineRun } from '../run/useRun';
import { mayHavePins, RunsView } from '../runs';
import { useRoute } from './route';
import { Sidebar } from './Sidebar';
import { Splitter, useSplitSize } from './Splitter';
import { WorkbenchContext, type Workbench } from './workbench-context';

/** The flow view (React Flow, dagre in the worker) loads only when first shown. */
const FlowView = lazy(() => import('../flow').then((m) => ({ default: m.FlowView })));

/** One editor model per document and form (its own undo history); the suffix picks the schema. */
function modelPath(key: string | undefined, form: PipelineForm): string {
  const name = key ? key.replace(/[^A-Za-z0-9._-]/g, '_') : 'untitled';
  return `${name}.pi.${form}`;
}

export function WorkbenchMain() {
  const document = usePipelineDocument();
  const { doc, load, source } = document;
  const [route, navigate] = useRoute();
  const editor = useRef<PipelineEditorHandle | null>(null);
  // The pipeline's pins stand in for their steps in the editor's runs unless the user turns them off.
  const [usePins, setUsePins] = useState(true);
  const runSource = useCallback(() => {
    const current = source();
    return { ...current, pins: usePins && mayHavePins(current.key) };
  }, [source, usePins]);
  const run = usePipelineRun(runSource);
  const { reset: resetRun } = run;
  const [showHistory, setShowHistory] = useState(false);
  useUnsavedGuard(useCallback(() => source().dirty, [source]));
  const [sidebarWidth, setSidebarWidth] = useSplitSize({
    storageKey: 'pipework.sidebar',
    initial: 420,
    min: 240,
    max: 900,
  });
  const [runHeight, setRunHeight] = useSplitSize({
    storageKey: 'pipework.runPanel',
    initial: 300,
    min: 120,
    max: 900,
  });

  useEffect(() => {
    if (route.view !== 'editor' || !route.key || route.key === source().key) return;
    // The result and trace belong to the pipeline they ran: another one starts with empty panels.
    resetRun();
    void load(route.key);
  }, [route.view, route.key, load, source, resetRun]);

  const workbench = useMemo<Workbench>(
    () => ({
      openPipeline: (key) => {
        if (
          source().dirty &&
          !window.confirm('The pipeline has unsaved changes. Open another one and drop them?')
        )
          return;
        if (route.view === 'editor' && key === route.key) {
          resetRun();
          void load(key);
        } else navigate({ view: 'editor', key });
      },
      insertIntoEditor: (step) => editor.current?.insertStep(step),
    }),
    [route.key, route.view, load, navigate, source, resetRun],
  );

  const reveal = useCallback(
    (line: number, column: number) => editor.current?.revealPosition(line, column),
    [],
  );
  // A jump from the Runs view: the position is shown once that pipeline is loaded and the editor is there.
  const pendingReveal = useRef<{ key: string; line: number; column: number } | null>(null);
  const [editorGeneration, setEditorGeneration] = useState(0);
  useEffect(() => {
    const pending = pendingReveal.current;
    if (!pending || route.view !== 'editor' || !editor.current) return;
    if (doc.key !== pending.key || doc.busy === 'loading') return;
    editor.current.revealPosition(pending.line, pending.column);
    pendingReveal.current = null;
  }, [route.view, doc.key, doc.busy, editorGeneration]);
  const openAt = useCallback(
    (key: string, line?: number, column?: number) => {
      pendingReveal.current = line === undefined ? null : { key, line, column: column ?? 1 };
      workbench.openPipeline(key);
    },
    [workbench],
  );
  const [flowShown, setFlowShown] = useState(false);
  const outcome = run.outcome;
  // Statuses belong to the text that ran: an edit after the run hides them.
  const ranOutcome = outcome && outcome.source === doc.text ? outcome : undefined;
  const onEditorReady = useCallback((handle: PipelineEditorHandle) => {
    editor.current = handle;
    setEditorGeneration((n) => n + 1);
  }, []);

  return (
    <WorkbenchContext.Provider value={workbench}>
      <div className="wb-body">
        <Sidebar width={sidebarWidth} />
        <Splitter
          orientation="vertical"
          size={sidebarWidth}
          onSize={setSidebarWidth}
          direction={1}
          label="Resize the sidebar"
        />
        {route.view === 'runs' ? (
          <main className="wb-main wb-app-view">
            <Suspense fallback={<div className="wb-editor-loading">Loading…</div>}>
              <RunsView
                runId={route.run}
                onSelect={(id) => navigate({ view: 'runs', run: id })}
                onOpenAt={openAt}
              />
            </Suspense>
          </main>
        ) : route.view !== 'editor' ? (
          <main className="wb-main wb-app-view">
            <Suspense fallback={<div className="wb-editor-loading">Loading…</div>}>
              <AppViews route={route} navigate={navigate} openPipeline={workbench.openPipeline} />
            </Suspense>
          </main>
        ) : (
          <main className="wb-main">
            <DocumentBar
              document={document}
              onRun={run.run}
              running={run.running}
              onStored={(key) => {
                navigate({ view: 'editor', key });
                editor.current?.focus();
              }}
              onHistory={() => setShowHistory(true)}
            />
            <div className="wb-view-bar">
              {mayHavePins(doc.key) && (
                <label className="wb-pins-toggle">
                  <input type="checkbox" checked={usePins} onChange={(e) => setUsePins(e.target.checked)} />
                  Use pinned outputs
                </label>
              )}
              <button
                type="button"
                className="wb-flow-toggle"
                aria-pressed={flowShown}
                onClick={() => setFlowShown((shown) => !shown)}
              >
                Flow view
              </button>
            </div>
            <div className="wb-editor-split">
              <div className="wb-editor">
                <Suspense fallback={<div className="wb-editor-loading">Loading the editor…</div>}>
                  <PipelineEditor
                    value={doc.text}
                    onChange={document.change}
                    language={doc.form}
                    path={modelPath(doc.key, doc.form)}
                    onRun={run.run}
                    onEditorReady={onEditorReady}
                    minHeight={0}
                  />
                </Suspense>
              </div>
              {flowShown && (
                <div className="wb-flow">
                  <Suspense fallback={<div className="wb-editor-loading">Loading the flow view…</div>}>
                    <FlowView
                      path={modelPath(doc.key, doc.form)}
                      outcome={ranOutcome}
                      onSelectStep={reveal}
                      onOpenPipeline={workbench.openPipeline}
                    />
                  </Suspense>
                </div>
              )}
            </div>
            <Splitter
              orientation="horizontal"
              size={runHeight}
              onSize={setRunHeight}
              direction={-1}
              label="Resize the run panel"
            />
            <div className="wb-run" style={{ height: runHeight }}>
              <RunPanel run={run} onReveal={reveal} />
            </div>
          </main>
        )}
      </div>
      {doc.conflict && <ConflictDialog document={document} />}
      {showHistory && doc.key && (
        <HistoryDialog
          propertyKey={doc.key}
          current={doc.text}
          language={doc.form}
          onClose={() => setShowHistory(false)}
          onRestored={() => {
            setShowHistory(false);
            void document.reload();
          }}
        />
      )}
    </WorkbenchContext.Provider>
  );
}
