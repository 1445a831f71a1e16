/**
 * An object's list of 2,000 instances: after jumps through the list (rows reused for other instances) each
 * drawn row shows its own instance, and sorting and filtering go through the server.
 */
import { expect, test, type Locator } from '@playwright/test';
import { accessTokenFor, signIn } from './support/sign-in';

const OBJECT = 'global/app/e2elist/object/order/v1';
const INSTANCES = 2_000;
const CITIES = ['Berlin', 'Hamburg', 'München', 'Köln', 'Leipzig', 'Bremen', 'Dresden'];
const customerOf = (i: number) => `Customer ${(i * 7919) % INSTANCES}`;
const keyOf = (i: number) => `${OBJECT}/instance/${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`;

/** [row index, first cell, Open button's label] of each drawn row, in document order. */
function drawnRows(rows: Locator): Promise<[number, string, string][]> {
  return rows.evaluate((el) =>
    [...el.querySelectorAll('[role=row]')].map(
      (row) =>
        [
          Number(row.getAttribute('aria-rowindex')) - 3,
          row.querySelector('[role=cell]')?.textContent ?? '',
          row.querySelector('button')?.getAttribute('aria-label') ?? '',
        ] as [number, string, string],
    ),
  );
}

test('a long list shows each instance in its own row after jumps, sorts and filters', async ({
  page,
  request,
}) => {
  const token = await accessTokenFor(request);
  const schema = {
    type: 'object',
    properties: {
      customer: { type: 'string', title: 'Customer' },
      city: { type: 'string', title: 'City' },
      amount: { type: 'number', title: 'Amount' },
    },
  };
  const entries = [{ key: `${OBJECT}/schema`, value: JSON.stringify(schema), type: 'application/json' }];
  for (let i = 0; i < INSTANCES; i++)
    entries.push({
      key: keyOf(i),
      type: 'application/json',
      value: JSON.stringify({
        customer: customerOf(i),
        city: CITIES[i % CITIES.length],
        amount: (i * 37) % 1000,
      }),
    });
  const imported = await request.post('/api/v3/command/property.import?strategy=update', {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    data: JSON.stringify(entries),
  });
  expect(imported.ok(), await imported.text()).toBe(true);

  await page.goto(`/#/list?object=${encodeURIComponent(OBJECT)}`);
  await signIn(page);
  await expect(page.getByTestId('list-total')).toHaveText(`${INSTANCES} instances`);
  const rows = page.getByTestId('list-rows');

  for (const fraction of [0.5, 0.93, 0.2, 0.5]) {
    await rows.evaluate((el, f) => (el.scrollTop = el.scrollHeight * f), fraction);
    await expect
      .poll(async () => {
        const drawn = await drawnRows(rows);
        const wrong = drawn.filter(
          ([i, cell, open]) => cell !== customerOf(i) || open !== `Open ${keyOf(i)}`,
        );
        const inOrder = drawn.every(([i], n) => n === 0 || i === drawn[n - 1]![0] + 1);
        return drawn.length > 10 && wrong.length === 0 && inOrder;
      })
      .toBe(true);
  }

  await rows.evaluate((el) => (el.scrollTop = 0));
  await page
    .getByRole('columnheader', { name: /^Amount/ })
    .getByRole('button')
    .click();
  await expect(page.getByRole('columnheader', { name: /^Amount/ })).toHaveAttribute('aria-sort', 'ascending');
  await expect(rows.getByRole('row').first().getByRole('cell').nth(2)).toHaveText('0');

  await page.getByLabel('Filter City').fill('Leip');
  // Instances 4, 11, 18, ... are in Leipzig.
  await expect(page.getByTestId('list-total')).toHaveText(
    `${Math.floor((INSTANCES - 1 - 4) / 7) + 1} instances`,
  );
  await expect(rows.getByRole('row').first().getByRole('cell').nth(1)).toHaveText('Leipzig');
});
