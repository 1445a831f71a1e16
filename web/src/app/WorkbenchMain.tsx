/**
 * The centre of the workbench: the document toolbar, the editor and the run panel. It owns the document and
 * the editor handle and offers them to the sidebar's features through the workbench context.
 */
import { Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { PipelineEditor, type PipelineEditorHandle } from '../editor';
import { DocumentBar } from '../document/DocumentBar';
import { ConflictDialog } from '../document/ConflictDialog';
import { usePipelineDocument } from '../document/useDocument';
import { useRoute } from './route';
import { WorkbenchContext, type Workbench } from './workbench-context';

export function WorkbenchMain({ sidebar }: { sidebar: ReactNode }) {
  const document = usePipelineDocument();
  const { doc, load } = document;
  const [route, navigate] = useRoute();
  const editor = useRef<PipelineEditorHandle | null>(null);
  const [runRequest, setRunRequest] = useState(0);

  useEffect(() => {
    if (route.key && route.key !== doc.key) void load(route.key);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a changed route opens another property
  }, [route.key]);

  const workbench = useMemo<Workbench>(
    () => ({
      openPipeline: (key) => (key === route.key ? void load(key) : navigate({ view: 'editor', key })),
      insertIntoEditor: (text) => editor.current?.insertText(text),
    }),
    [route.key, load, navigate],
  );

  const run = useCallback(() => setRunRequest((n) => n + 1), []);

  return (
    <WorkbenchContext.Provider value={workbench}>
      <div className="wb-body">
        {sidebar}
        <main className="wb-main">
          <DocumentBar document={document} onRun={run} />
          <div className="wb-editor">
            <Suspense fallback={<div className="wb-editor-loading">Loading the editor…</div>}>
              <PipelineEditor
                value={doc.text}
                onChange={document.change}
                language={doc.form}
                path={doc.form === 'json' ? 'pipeline.pi.json' : 'pipeline.pi.yaml'}
                onRun={run}
                onEditorReady={(handle) => (editor.current = handle)}
              />
            </Suspense>
          </div>
          <div className="wb-run" data-run-request={runRequest} />
        </main>
      </div>
      {doc.conflict && <ConflictDialog document={document} />}
    </WorkbenchContext.Provider>
  );
}
