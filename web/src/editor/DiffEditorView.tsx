/** Monaco's diff editor, read-only, for comparing two texts (the history panel); loaded lazily through index.ts. */
import { DiffEditor } from '@monaco-editor/react';
import './monaco-setup';

export interface DiffEditorProps {
  original: string;
  modified: string;
  language: string;
  /** Side by side when there is room, else inline. */
  sideBySide?: boolean;
}

export default function DiffEditorView({ original, modified, language, sideBySide }: DiffEditorProps) {
  return (
    <div className="code-editor" style={{ position: 'relative', height: '100%', minHeight: 200 }}>
      <DiffEditor
        original={original}
        modified={modified}
        language={language}
        options={{
          readOnly: true,
          originalEditable: false,
          renderSideBySide: sideBySide ?? true,
          minimap: { enabled: false },
          fontSize: 13,
          scrollBeyondLastLine: false,
          automaticLayout: true,
        }}
        loading={<p className="editor-loading">Loading the diff…</p>}
        wrapperProps={{ style: { display: 'flex', position: 'absolute', inset: 0 } }}
      />
    </div>
  );
}
