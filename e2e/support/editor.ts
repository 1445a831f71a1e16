/** Shared steps of the e2e specs that drive the Monaco pipeline editor through the page's `window.monaco`. */
import type { Page } from '@playwright/test';

export type EditorWindow = Window & { monaco: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Moves the cursor (as a click would) without changing the text, and focuses the editor. */
export async function moveTo(page: Page, line: number, column: number): Promise<void> {
  await page.evaluate(
    ({ line, column }) => {
      const editor = (window as unknown as EditorWindow).monaco.editor.getEditors()[0];
      editor.setPosition({ lineNumber: line, column });
      editor.focus();
    },
    { line, column },
  );
}

/** The editor's whole text. */
export function editorText(page: Page): Promise<string> {
  return page.evaluate(
    () => (window as unknown as EditorWindow).monaco.editor.getEditors()[0].getValue() as string,
  );
}
