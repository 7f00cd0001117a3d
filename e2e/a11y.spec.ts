import { AxeBuilder } from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { navbar } from './fixtures.ts';

const pages = ['/', '/pricing', '/login', '/signup', '/contact'];

for (const path of pages) {
  test(`no serious or critical axe violations on ${path}`, async ({ page }) => {
    await page.goto(path);
    // Wait until the lazy page and the session check have rendered.
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(navbar(page).getByRole('link', { name: 'Sign In' })).toBeVisible();

    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.map((node) => node.target.join(' ')),
      }));
    expect(serious).toEqual([]);
  });
}
