// The editor core without the TypeScript, CSS and HTML language services (which the workbench does not use).
declare module 'monaco-editor/esm/vs/editor/edcore.main' {
  export * from 'monaco-editor';
}
