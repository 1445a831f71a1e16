/**
 * The pipeline editor alone on a page (no sign-in), for developing and measuring the editor itself. The
 * schema comes from the server that serves this page (its endpoint needs no credentials). With `?flow` the
 * flow view is drawn beside it, as in the workbench.
 */
import { StrictMode, Suspense, lazy, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { PipelineEditor, PipelineFormSwitch, type PipelineForm } from '../../../web/src/editor';

const FlowView = lazy(() => import('../../../web/src/flow').then((m) => ({ default: m.FlowView })));
const WITH_FLOW = new URLSearchParams(window.location.search).has('flow');
const ignore = () => {};

const FIRST = `pipeline:\n  - log:\n      message: "BODY: #{body.text}"\nbody:\n  text: hello\n`;

function Harness() {
  const [value, setValue] = useState(FIRST);
  const [form, setForm] = useState<PipelineForm>('yaml');
  return (
    <div style={{ display: 'flex', flexDirection: 'column', height: '100vh' }}>
      <PipelineFormSwitch
        form={form}
        text={value}
        onSwitch={(next, text) => {
          setForm(next);
          setValue(text);
        }}
      />
      <div style={{ flex: 1, minHeight: 0, display: 'flex' }}>
        <div style={{ flex: 1, minWidth: 0 }}>
          <Suspense fallback={<p>Loading…</p>}>
            <PipelineEditor value={value} onChange={setValue} language={form} />
          </Suspense>
        </div>
        {WITH_FLOW && (
          <div style={{ flex: 1, minWidth: 0 }}>
            <Suspense fallback={<p>Loading…</p>}>
              <FlowView path={`pipeline.pi.${form}`} onSelectStep={ignore} onOpenPipeline={ignore} />
            </Suspense>
          </div>
        )}
      </div>
    </div>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Harness />
  </StrictMode>,
);
