/** Shared steps of the workbench e2e specs: wait for the editor, replace its text. */
import { expect, type Page } from '@playwright/test';
import type { EditorWindow } from './editor';

export const SHOTS = 'test-results/screenshots';

/**
 * Waits until the Monaco pipeline editor is on the page and reachable through `window.monaco`; the editor's
 * chunk may take a while on a loaded machine.
 */
export async function editorReady(page: Page): Promise<void> {
  await expect(page.locator('[data-testid="pipeline-editor"] .monaco-editor')).toBeVisible({
    timeout: 30_000,
  });
  await page.waitForFunction(
    () => Boolean((window as unknown as EditorWindow).monaco?.editor.getEditors()[0]),
    undefined,
    { timeout: 30_000 },
  );
}

/** Replaces the editor's text (as a paste would) and focuses the editor. */
export async function setText(page: Page, text: string): Promise<void> {
  await page.evaluate((value) => {
    const editor = (window as unknown as EditorWindow).monaco.editor.getEditors()[0];
    editor.setValue(value);
    editor.focus();
  }, text);
}

/** Two screenshots of the page as it is: wide (1440x900) and narrow (1024x700); the size is restored. */
export async function screenshotsWideAndNarrow(page: Page, name: string): Promise<void> {
  const before = page.viewportSize();
  for (const [label, width, height] of [
    ['wide', 1440, 900],
    ['narrow', 1024, 700],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(150);
    await page.screenshot({ path: `${SHOTS}/${name}-${label}.png` });
  }
  if (before) await page.setViewportSize(before);
}
