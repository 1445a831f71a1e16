/**
 * The flow view beside the editor: if/else, foreach and finally as a graph, kept in step with typing, a click
 * on a step selects its line, and after a run each step shows its status and duration.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { moveTo, type EditorWindow } from './support/editor';
import { E2E_ADMIN_PASSWORD } from '../playwright.config';
import { editorReady, SHOTS, screenshotsWideAndNarrow, setText } from './support/workbench';

/** Signs in; the workbench chunk may take a while on a loaded machine. */
async function signIn(page: Page): Promise<void> {
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(E2E_ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-user')).toBeVisible({ timeout: 45_000 });
}

const PIPELINE = `vars:
  n: 0
pipeline:
  - if: "#{true}"
  - log: yes
  - if.else
  - log: no
  - if.end
  - foreach: "#{body}"
  - set.var:
      key: n
      value: "#{vars.n + 1}"
  - foreach.end
  - finally
  - set.body: "#{vars.n}"
body: [1, 2, 3]
`;

function cursorLine(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      (window as unknown as EditorWindow).monaco.editor.getEditors()[0].getPosition().lineNumber as number,
  );
}

async function shots(page: Page, name: string): Promise<void> {
  for (const [label, width, height] of [
    ['wide', 1600, 1000],
    ['narrow', 1024, 700],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/${name}-${label}.png` });
  }
}

/** Signs in, puts PIPELINE in the editor and opens the flow view beside it, wide. */
async function openFlowView(page: Page): Promise<Locator> {
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto('/');
  await signIn(page);
  await editorReady(page);
  await setText(page, PIPELINE);
  await page.getByRole('button', { name: 'Flow view' }).click();
  return page.getByTestId('flow-view');
}

test('shows the steps as a graph and follows typing', async ({ page }) => {
  const flow = await openFlowView(page);
  await expect(flow).toBeVisible();
  const step = (n: number) => flow.locator(`[data-step="${n}"] .flow-step-select`);
  await expect(step(1)).toHaveAccessibleName(/^Step 1: if/);
  await expect(flow.locator('.flow-role-if-else')).toHaveCount(1);
  await expect(flow.locator('.flow-role-foreach')).toHaveCount(1);
  await expect(flow.locator('.flow-role-finally')).toHaveCount(1);
  await expect(flow.locator('.react-flow__edge')).not.toHaveCount(0);
  await expect(flow.getByText('else', { exact: true })).toBeVisible();

  // Typing a new step shows it.
  await moveTo(page, 15, 26);
  await page.keyboard.press('End');
  await page.keyboard.type('\n- log: added');
  await expect(step(11)).toHaveAccessibleName('Step 11: log added');
  await shots(page, 'flow-view');
});

test('a step added updates the graph in place: the view the user moved stays, the steps are not drawn again', async ({
  page,
}) => {
  const flow = await openFlowView(page);
  await expect(flow).toHaveAttribute('data-steps', '10');
  await expect(flow.locator('[data-step="1"]')).toBeVisible();
  // A mark on the first step's element: a graph mounted again draws new elements, without it.
  await flow.locator('[data-step="1"]').evaluate((element) => element.setAttribute('data-mark', 'kept'));

  // The user drags the view down and right (from the empty left edge of the pane).
  const box = (await flow.boundingBox())!;
  await page.mouse.move(box.x + 12, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 42, box.y + box.height / 2 + 40, { steps: 5 });
  await page.mouse.up();
  const viewport = flow.locator('.react-flow__viewport');
  const moved = await viewport.evaluate((element) => (element as HTMLElement).style.transform);

  // A new first step: the cursor stays at the top of the graph, in view.
  await page.evaluate(() => {
    const { monaco } = window as unknown as EditorWindow;
    const editor = monaco.editor.getEditors()[0];
    editor.executeEdits('e2e', [{ range: new monaco.Range(4, 1, 4, 1), text: '  - log: first\n' }]);
    editor.setPosition({ lineNumber: 4, column: 5 });
  });
  await expect(flow).toHaveAttribute('data-steps', '11');
  await expect(flow.locator('[data-step="1"] .flow-step-select')).toHaveAccessibleName('Step 1: log first');
  await expect(flow.locator('[data-step="1"]')).toHaveAttribute('data-mark', 'kept');
  expect(await viewport.evaluate((element) => (element as HTMLElement).style.transform)).toBe(moved);
});

test("a click selects the step's line, and a run shows statuses and durations", async ({ page }) => {
  const flow = await openFlowView(page);
  const step = (n: number) => flow.locator(`[data-step="${n}"] .flow-step-select`);
  // A click on a step selects its line in the editor. Step 7 is inside the loop, where the loop's way back
  // and its label once lay over it and took the click.
  await moveTo(page, 1, 1);
  await step(7).click();
  await expect.poll(() => cursorLine(page)).toBe(10);
  await step(4).click();
  await expect.poll(() => cursorLine(page)).toBe(7);

  // After a run: statuses and durations from the trace.
  await page.getByRole('button', { name: /Run/ }).first().click();
  await expect(page.getByTestId('run-summary')).toHaveText(/Done/);
  await expect(step(2)).toHaveAccessibleName(/Step 2: log yes, ok \d+ ms/);
  // The else-branch was not taken: its step did not run; the block's markers have no status of their own.
  await expect(step(4)).toHaveAccessibleName('Step 4: log no, not run');
  await expect(step(3)).toHaveAccessibleName('Step 3: if.else');
  await expect(step(5)).toHaveAccessibleName('Step 5: if.end');
  await expect(step(6)).toHaveAccessibleName(/^Step 6: foreach #\{body\}, ok \d+ ms$/);
  await expect(step(7)).toHaveAccessibleName(/^Step 7: set.var, ok \d+ ms ×3$/);
  await expect(step(10)).toHaveAccessibleName(/^Step 10: set.body #\{vars.n\}, ok \d+ ms$/);
  await expect(flow.locator('.flow-status-ok')).toHaveCount(6);
  await expect(flow.locator('.flow-status-not-run')).toHaveCount(1);
  await expect(flow.locator('[data-step="7"] .flow-step-status')).toHaveText(/^ok \d+ ms ×3$/);
  await step(7).focus();
  await screenshotsWideAndNarrow(page, 'flow-view-run');

  // An edit after the run: the statuses belong to the text that ran, so they go.
  await moveTo(page, 15, 26);
  await page.keyboard.type(' ');
  await expect(flow.locator('.flow-status-ok')).toHaveCount(0);
  await expect(step(7)).toHaveAccessibleName('Step 7: set.var');
});
