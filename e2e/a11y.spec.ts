import { expect, test } from '@playwright/test';
import { axeViolations } from './axe.ts';
import { navbar } from './fixtures.ts';

const pages = ['/', '/pricing', '/login', '/signup', '/contact'];

for (const path of pages) {
  test(`no serious or critical axe violations on ${path}`, async ({ page }) => {
    await page.goto(path);
    // Wait until the lazy page and the session check have rendered.
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(navbar(page).getByRole('link', { name: 'Sign In' })).toBeVisible();

    expect(await axeViolations(page)).toEqual([]);
  });
}
