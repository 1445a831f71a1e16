/** A plain Monaco editor for a value in any language (the property view); loaded lazily through index.ts. */
import Editor from '@monaco-editor/react';
import './monaco-setup';
import type { CodeEditorProps } from './types';

export default function CodeEditorView({ value, language, readOnly, onChange, height }: CodeEditorProps) {
  return (
    <div className="code-editor" style={{ position: 'relative', height: height ?? 300, minHeight: 120 }}>
      <Editor
        value={value}
        language={language}
        options={{
          readOnly: readOnly ?? false,
          minimap: { enabled: false },
          fontSize: 13,
          scrollBeyondLastLine: false,
          automaticLayout: true,
        }}
        onChange={(next) => onChange?.(next ?? '')}
        loading={<p className="editor-loading">Loading the editor…</p>}
        wrapperProps={{ style: { display: 'flex', position: 'absolute', inset: 0 } }}
      />
    </div>
  );
}
