/**
 * The pipeline editor in Chromium against the real server: schema and PEL markers at their line and column,
 * completion of commands, parameters and expressions, and switching between the YAML, JSON and URI forms.
 */
import { expect, test, type Page } from '@playwright/test';
import { parse as parseYaml } from 'yaml';
import { E2E_ADMIN_PASSWORD } from '../playwright.config';
import { editorText, moveTo, type EditorWindow } from './support/editor';

const SHOTS = 'test-results/screenshots';
/** Monaco's MarkerSeverity: our validator's and PEL's errors (warnings are for what would still run). */
const ERROR = 8;

interface Marker {
  owner: string;
  severity: number;
  message: string;
  line: number;
  column: number;
}

/** Signs in when the page asks for it, then waits for the pipeline editor. */
async function openEditor(page: Page): Promise<void> {
  await page.goto('/');
  const username = page.getByLabel('Username');
  const editor = page.locator('[data-testid="pipeline-editor"] .monaco-editor');
  await expect(username.or(editor).first()).toBeVisible();
  if (await username.isVisible()) {
    await username.fill('admin');
    await page.getByLabel('Password').fill(E2E_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await expect(editor).toBeVisible();
  await page.waitForFunction(() => Boolean((window as { monaco?: unknown }).monaco));
}

/** Puts a text in the editor (as a paste would) and the cursor at a line and column, ready for typing. */
async function setText(page: Page, text: string, line = 1, column = 1): Promise<void> {
  await page.evaluate(
    ({ text, line, column }) => {
      const editor = (window as unknown as EditorWindow).monaco.editor.getEditors()[0];
      editor.setValue(text);
      editor.setPosition({ lineNumber: line, column });
      editor.focus();
    },
    { text, line, column },
  );
}

function markers(page: Page): Promise<Marker[]> {
  return page.evaluate(() => {
    const monaco = (window as unknown as EditorWindow).monaco;
    const model = monaco.editor.getEditors()[0].getModel();
    return monaco.editor
      .getModelMarkers({ resource: model.uri })
      .map(
        (m: {
          owner: string;
          severity: number;
          message: string;
          startLineNumber: number;
          startColumn: number;
        }) => ({
          owner: m.owner,
          severity: m.severity,
          message: m.message,
          line: m.startLineNumber,
          column: m.startColumn,
        }),
      );
  });
}

async function suggestions(page: Page): Promise<string[]> {
  const rows = page.locator('.suggest-widget.visible .monaco-list-row');
  await expect(rows.first()).toBeVisible();
  return rows.allInnerTexts();
}

test('schema and PEL problems are marked at their line and column while typing', async ({ page }) => {
  await openEditor(page);
  await setText(
    page,
    'pipeline:\n  - log:\n      message: "Hi #{body.a}"\n  - log:\n      message: ok\nbody:\n  text: hello\n',
  );
  await expect.poll(() => markers(page)).toEqual([]);
  // An unknown command, a broken expression and a parameter the command does not have, typed key by key.
  await moveTo(page, 2, 5);
  await page.keyboard.type('nosuch.');
  await moveTo(page, 3, 28);
  await page.keyboard.type(' +');
  await moveTo(page, 5, 18);
  await page.keyboard.press('Enter');
  await page.keyboard.type('wrong: 2');
  const expected = [
    { owner: 'pipework', severity: ERROR, line: 2, column: 5, message: "Unknown command 'nosuch.log'." },
    {
      owner: 'pel',
      severity: ERROR,
      line: 3,
      column: 30,
      message: 'unexpected end of expression, expected a value',
    },
    {
      owner: 'pipework',
      severity: ERROR,
      line: 6,
      column: 14,
      message: "Unknown parameter 'wrong' for command 'log'.",
    },
  ];
  await expect
    .poll(async () =>
      (await markers(page))
        .map(({ owner, severity, line, column, message }) => ({ owner, severity, line, column, message }))
        .sort((a, b) => a.line - b.line),
    )
    .toEqual(expected);
  // The squiggles are drawn, and hovering the PEL one tells what is wrong.
  await expect(page.locator('.squiggly-error')).toHaveCount(3);
  const at = await page.evaluate(() => {
    const editor = (window as unknown as EditorWindow).monaco.editor.getEditors()[0];
    const p = editor.getScrolledVisiblePosition({ lineNumber: 3, column: 30 });
    const box = editor.getDomNode().getBoundingClientRect();
    return { x: box.left + p.left + 3, y: box.top + p.top + p.height / 2 };
  });
  await page.mouse.move(at.x, at.y);
  await expect(
    page.locator('.monaco-hover').filter({ hasText: 'unexpected end of expression' }),
  ).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/editor-markers.png` });

  // Fixing the expression removes its marker; the others stay.
  await moveTo(page, 3, 30);
  await page.keyboard.type(' 1');
  await expect
    .poll(async () => (await markers(page)).map((m) => `${m.owner} ${m.line}:${m.column}`).sort())
    .toEqual(['pipework 2:5', 'pipework 6:14']);
});

test('completes command names, their parameters and expressions', async ({ page }) => {
  await openEditor(page);
  await setText(page, 'vars:\n  greeting: hi\npipeline:\n  - ', 4, 5);
  await page.keyboard.type('dat');
  await page.keyboard.press('Control+Space');
  expect(await suggestions(page)).toContain('datetime');
  await page.screenshot({ path: `${SHOTS}/editor-suggest-command.png` });
  await page.locator('.suggest-widget.visible .monaco-list-row', { hasText: /^datetime$/ }).click();
  // monaco-yaml writes the command with its parameters' defaults.
  await expect.poll(() => editorText(page)).toMatch(/^vars:\n {2}greeting: hi\npipeline:\n {2}- datetime:/);

  await setText(page, 'vars:\n  greeting: hi\npipeline:\n  - datetime:\n      ', 5, 7);
  await page.keyboard.type('for');
  await page.keyboard.press('Control+Space');
  expect((await suggestions(page)).some((s) => s.startsWith('format'))).toBe(true);
  await page.locator('.suggest-widget.visible .monaco-list-row', { hasText: /^format/ }).click();
  await expect.poll(() => editorText(page)).toMatch(/- datetime:\n +format: ?$/);

  await page.keyboard.type('"#{vars.');
  const items = await suggestions(page);
  expect(items.some((s) => s.startsWith('greeting'))).toBe(true);
  await page.screenshot({ path: `${SHOTS}/editor-suggest-expression.png` });
  await page.locator('.suggest-widget.visible .monaco-list-row', { hasText: /^greeting/ }).click();
  await expect.poll(() => editorText(page)).toContain('format: "#{vars.greeting}"');
});

test('switches YAML -> JSON -> URI -> YAML and keeps the pipeline', async ({ page }) => {
  await openEditor(page);
  const yaml = 'pipeline:\n  - datetime:\n      format: yyyy\n  - log:\n      message: "at #{body} & 100%"\n';
  await setText(page, yaml);
  const forms = page.getByRole('group', { name: 'Pipeline form' });

  await forms.getByRole('button', { name: 'JSON' }).click();
  await expect.poll(async () => JSON.parse(await editorText(page))).toEqual(parseYaml(yaml));

  await forms.getByRole('button', { name: 'URI' }).click();
  await expect
    .poll(() => editorText(page))
    .toBe('datetime?format=yyyy|log?message=at%20#{body}%20%26%20100%25');
  await page.screenshot({ path: `${SHOTS}/editor-uri.png` });

  await forms.getByRole('button', { name: 'YAML' }).click();
  await expect.poll(async () => parseYaml(await editorText(page))).toEqual(parseYaml(yaml));
  await expect(forms.getByRole('button', { name: 'YAML' })).toHaveAttribute('aria-pressed', 'true');

  // What a URI cannot hold is refused with a reason, and the text stays as it was.
  await setText(page, 'headers:\n  name: x\npipeline:\n  - log\n');
  await forms.getByRole('button', { name: 'URI' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Cannot switch' })).toContainText(
    "cannot hold the 'headers' section",
  );
  expect(await editorText(page)).toBe('headers:\n  name: x\npipeline:\n  - log\n');
});

test('JSON pipelines get the same schema and PEL checks', async ({ page }) => {
  await openEditor(page);
  // The first pipeline has a comment: switching to JSON asks before it drops it.
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('group', { name: 'Pipeline form' }).getByRole('button', { name: 'JSON' }).click();
  await setText(
    page,
    '{\n  "pipeline": [\n    { "nosuch": null },\n    { "log": { "message": "#{@date.nope()}", "wrong": 1 } }\n  ]\n}\n',
  );
  await expect
    .poll(async () =>
      (await markers(page)).map((m) => `${m.owner} ${m.line}:${m.column} ${m.message}`).sort(),
    )
    .toEqual([
      "pel 4:36 the utility '@date' has no function 'nope'",
      "pipework 3:7 Unknown command 'nosuch'.",
      "pipework 4:55 Unknown parameter 'wrong' for command 'log'.",
    ]);
  await page.screenshot({ path: `${SHOTS}/editor-json.png` });
});

test('formats the pipeline with Shift+Alt+F', async ({ page }) => {
  await openEditor(page);
  await setText(page, 'pipeline:\n    -   log:\n            message:    hi\n');
  // Formatting needs the YAML worker, which may still be starting.
  await expect
    .poll(async () => {
      await page.keyboard.press('Shift+Alt+F');
      return editorText(page);
    })
    .toBe('pipeline:\n  - log:\n      message: hi\n');
});
