import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * Axe's violations on what the page shows now: serious and critical ones, or every one with
 * `everyImpact`; `include` narrows the check to a selector. Motion is reduced while axe runs: a toast
 * fading in or out is drawn half-transparent, and axe's contrast check counted such a passing frame
 * as low contrast (CI caught a "Channel updated" toast mid-fade). sonner drops its transitions under
 * reduced motion, so a toast is either fully shown and checked as users read it, or gone.
 */
export async function axeViolations(page: Page, opts: { include?: string; everyImpact?: boolean } = {}) {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  try {
    const builder = new AxeBuilder({ page });
    if (opts.include) builder.include(opts.include);
    const { violations } = await builder.analyze();
    return violations
      .filter((v) => opts.everyImpact || v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((n) => n.target.join(' ')),
      }));
  } finally {
    await page.emulateMedia({ reducedMotion: null });
  }
}
