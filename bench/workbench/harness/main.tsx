/**
 * The pipeline editor alone on a page (no sign-in), for developing and measuring the editor itself. The
 * schema comes from the server that serves this page (its endpoint needs no credentials).
 */
import { StrictMode, Suspense, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { PipelineEditor, type PipelineLanguage } from '../../../web/src/editor';

const FIRST = `pipeline:\n  - log:\n      message: "BODY: #{body.text}"\nbody:\n  text: hello\n`;

function Harness() {
  const [value, setValue] = useState(new URLSearchParams(location.search).get('text') ?? FIRST);
  const [language] = useState<PipelineLanguage>('yaml');
  return (
    <Suspense fallback={<p>Loading…</p>}>
      <PipelineEditor value={value} onChange={setValue} language={language} height="100vh" />
    </Suspense>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Harness />
  </StrictMode>,
);
