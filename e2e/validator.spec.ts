/**
 * The one validator in the workbench: a typo gets our red marker with our message while typing (the worker,
 * no server round trip), the quick fix offers the nearest name first, and a run of a pipeline invalid at step 5
 * lists every problem and writes nothing.
 */
import { expect, test, type Page } from '@playwright/test';
import { editorText, moveTo, type EditorWindow } from './support/editor';
import { E2E_ADMIN_PASSWORD } from '../playwright.config';
import { accessTokenFor, callCommand } from './support/sign-in';
import { editorReady, SHOTS, setText } from './support/workbench';

/** Signs in; the workbench chunk may take a while on a loaded machine. */
async function signIn(page: Page): Promise<void> {
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(E2E_ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-user')).toBeVisible({ timeout: 45_000 });
}

const ERROR = 8;
/** The first markers wait for the worker and the schema: slow on a loaded machine, so the wait is generous. */
const FIRST_MARKERS = { timeout: 30_000 };

function ourMarkers(
  page: Page,
): Promise<{ severity: number; message: string; line: number; column: number }[]> {
  return page.evaluate(() => {
    const monaco = (window as unknown as EditorWindow).monaco;
    const model = monaco.editor.getEditors()[0].getModel();
    return monaco.editor
      .getModelMarkers({ resource: model.uri, owner: 'pipework' })
      .map((m: { severity: number; message: string; startLineNumber: number; startColumn: number }) => ({
        severity: m.severity,
        message: m.message,
        line: m.startLineNumber,
        column: m.startColumn,
      }));
  });
}

async function shots(page: Page, name: string): Promise<void> {
  for (const [label, width, height] of [
    ['wide', 1600, 1000],
    ['narrow', 1024, 700],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(200);
    await page.screenshot({ path: `${SHOTS}/${name}-${label}.png` });
  }
}

test('a typo gets a red marker with our message while typing', async ({ page }) => {
  await page.goto('/');
  await signIn(page);
  await editorReady(page);
  await setText(page, 'pipeline:\n  - log: hi\n');
  await expect.poll(() => ourMarkers(page)).toEqual([]);
  // The schema has reached the worker once a first problem shows; then it goes again.
  await setText(page, 'pipeline:\n  - lgo: hi\n');
  await expect.poll(async () => (await ourMarkers(page)).length, FIRST_MARKERS).toBe(1);
  await setText(page, 'pipeline:\n  - log: hi\n');
  await expect.poll(() => ourMarkers(page)).toEqual([]);
  await moveTo(page, 2, 5);
  await page.keyboard.press('Delete');
  await page.keyboard.type('lg');
  // "lgog" is one edit from "log".
  await expect
    .poll(() => ourMarkers(page), { intervals: [20] })
    .toEqual([
      { severity: ERROR, line: 2, column: 5, message: "Unknown command 'lgog'. Did you mean 'log'?" },
    ]);
  // How fast is measured by `npm run bench` (keystroke to marker), not here: a loaded machine is no failure.
  await expect(page.locator('.squiggly-error')).toHaveCount(1);
  // No generic schema warning shows the same problem a second time.
  await expect(page.locator('.squiggly-warning')).toHaveCount(0);
});

test("a parameter's type is checked in the editor as the server checks it", async ({ page, request }) => {
  await page.goto('/');
  await signIn(page);
  await editorReady(page);
  // A wrong value from a closed list, a list where text is expected, and a number given as text (fine: it is
  // coerced as at run time). The page forbids generated code, so this is the interpreted check, not ajv's.
  const text =
    'pipeline:\n  - log:\n      message: hi\n      level: loud\n  - wait:\n      ms: [1]\n  - wait: "5"\n';
  await setText(page, text);
  await expect.poll(async () => (await ourMarkers(page)).length, FIRST_MARKERS).toBe(2);
  const token = await accessTokenFor(request);
  const server = await callCommand<{ code: string; message: string; line: number; column: number }[]>(
    request,
    token,
    'pipeline.validate',
    { format: 'yaml' },
    text,
  );
  expect(server.map((p) => p.code)).toEqual(['PARAM_INVALID', 'PARAM_INVALID']);
  expect(await ourMarkers(page)).toEqual(
    server.map((p) => ({ severity: ERROR, message: p.message, line: p.line, column: p.column })),
  );
  expect(server[0]!.message).toMatch(/^Parameter 'level' of command 'log' must be one of "TRACE"/);
  expect(server[1]!.message).toBe("Parameter 'ms' of command 'wait' must be integer,string.");
});

test('the first quick fix is the nearest name', async ({ page }) => {
  await page.goto('/');
  await signIn(page);
  await editorReady(page);
  await setText(page, 'pipeline:\n  - lgog: hi\n');
  // The fixes belong to the marker: it must be there before the quick-fix key asks for them.
  await expect
    .poll(() => ourMarkers(page), FIRST_MARKERS)
    .toEqual([
      { severity: ERROR, line: 2, column: 5, message: "Unknown command 'lgog'. Did you mean 'log'?" },
    ]);
  await moveTo(page, 2, 6);
  await page.keyboard.press('Control+.');
  // Monaco's action widget: one row per fix, nearest name first (not the 100-odd commands in name order).
  const fixes = page.locator('.action-widget .monaco-list-row.action');
  await expect(fixes.first()).toBeVisible();
  await expect(fixes).toHaveCount(5);
  await expect(fixes.first()).toContainText("Change to 'log'");
  // One shot as it is: a resize closes the widget.
  await page.screenshot({ path: `${SHOTS}/validator-quick-fix.png` });
  // The first row has the focus: Enter applies it.
  await page.keyboard.press('Enter');
  await expect.poll(() => editorText(page)).toBe('pipeline:\n  - log: hi\n');
  await expect.poll(() => ourMarkers(page)).toEqual([]);
});

test('a run of a pipeline invalid at step 5 lists every problem and writes nothing', async ({
  page,
  request,
}) => {
  await page.goto('/');
  await signIn(page);
  await editorReady(page);
  const keys = ['a', 'b', 'c', 'd'].map((k) => `global/e2e-validator/${k}`);
  const steps = keys
    .map((key, i) => `  - property.schema.put:\n      path: ${key}\n      value: ${i}\n`)
    .join('');
  const text = `pipeline:\n${steps}  - lgo: x\n  - property.get\n`;
  // The first document may still be loading: set the text until it stays.
  await expect
    .poll(async () => {
      await setText(page, text);
      return editorText(page);
    })
    .toBe(text);
  await expect.poll(async () => (await ourMarkers(page)).length, FIRST_MARKERS).toBe(2);
  await page.getByRole('button', { name: /Run/ }).first().click();
  const error = page.getByTestId('run-error');
  await expect(error).toContainText('2 problems were found before the run: nothing ran.');
  const problems = page.getByTestId('run-problems').getByRole('listitem');
  await expect(problems).toHaveCount(2);
  await expect(problems.nth(0)).toContainText(
    "line 14, column 5 COMMAND_NOT_FOUND Unknown command 'lgo'. Did you mean 'log'?",
  );
  await expect(problems.nth(1)).toContainText(
    "line 15, column 5 PARAM_INVALID Missing required parameter 'path' (or 'key') for command 'property.get'.",
  );
  await shots(page, 'validator-run-problems');
  const token = await accessTokenFor(request);
  for (const key of keys)
    expect(await callCommand(request, token, 'property.exists', { path: key })).toBe(false);
  // A click on a problem selects its line.
  await problems.nth(1).getByRole('button', { name: 'line 15, column 5' }).click();
  const line = await page.evaluate(
    () =>
      (window as unknown as EditorWindow).monaco.editor.getEditors()[0].getPosition().lineNumber as number,
  );
  expect(line).toBe(15);
});
