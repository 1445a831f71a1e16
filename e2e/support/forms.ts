/** Shared steps of the form specs: fill a rendered object form, and the serious findings of an axe-core audit. */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** Fills the form's fields by name: text as typed, booleans as checked, selects by their label. */
export async function fillForm(page: Page, fields: Record<string, string | boolean>): Promise<void> {
  for (const [name, value] of Object.entries(fields)) {
    const input = page.locator(`#root_${name}`);
    if (typeof value === 'boolean') await input.check();
    else if ((await input.evaluate((e) => e.tagName)) === 'SELECT')
      await input.selectOption({ label: value });
    else await input.fill(value);
  }
}

/** The serious and critical accessibility violations on the page, each with up to three of its places. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')}`,
    );
}
