/**
 * The pipeline editor alone on a page (no sign-in), for developing and measuring the editor itself. The
 * schema comes from the server that serves this page (its endpoint needs no credentials).
 */
import { StrictMode, Suspense, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { PipelineEditor, PipelineFormSwitch, type PipelineForm } from '../../../web/src/editor';

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
      <div style={{ flex: 1, minHeight: 0 }}>
        <Suspense fallback={<p>Loading…</p>}>
          <PipelineEditor value={value} onChange={setValue} language={form} />
        </Suspense>
      </div>
    </div>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Harness />
  </StrictMode>,
);
