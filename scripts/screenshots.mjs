// Screenshots of the web UI for docs/screenshots/: each mode with its first
// sample loaded (the cite mode's run with its demo host), in the light and dark themes, at 390 px (a phone) and
// 1280 px wide. `npm run screenshots` (needs pkg/ built and Debian's
// Chromium, like the browser tests; rebuilds www/dist/ when stale).
// Every file is overwritten; the README links them.

import fs from 'node:fs';
import path from 'node:path';
import { root } from '../tests/browser/build.mjs';
import { openApp } from '../tests/browser/app.mjs';

const OUT = path.join(root, 'docs', 'screenshots');
const MODES = ['evidence', 'transcript', 'judge', 'cite'];
/** What shows a mode's sample: its Load sample button (the cite mode has its sample in place: run it with the demo host). */
const SHOW = { cite: 'button.cite-run' };
const THEMES = ['light', 'dark'];
const WIDTHS = [390, 1280];
const HEIGHT = { 390: 844, 1280: 900 };

/** Waits until the mode's panel has finished what loading its sample started. */
async function settle(page) {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.waitForTimeout(600);
}

export async function takeScreenshots() {
  fs.mkdirSync(OUT, { recursive: true });
  const app = await openApp('');
  const written = [];
  try {
    const { page } = app;
    for (const mode of MODES) {
      await page.goto(`${app.server.url}index.html#${mode}`);
      const panel = `#panel-${mode}`;
      const show = `${panel} ${SHOW[mode] ?? 'button:text-is("Load sample") >> nth=0'}`;
      await page.waitForSelector(show);
      await page.click(show);
      await settle(page);
      for (const theme of THEMES) {
        await page.emulateMedia({ colorScheme: theme });
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: HEIGHT[width] });
          await page.evaluate(() => window.scrollTo(0, 0));
          await settle(page);
          const file = path.join(OUT, `${mode}-${theme}-${width}.png`);
          await page.screenshot({ path: file });
          written.push(path.relative(root, file));
        }
      }
    }
    if (app.pageErrors.length || app.foreignRequests.length) {
      throw new Error(`page errors or foreign requests: ${JSON.stringify([...app.pageErrors, ...app.foreignRequests])}`);
    }
  } finally {
    await app.close();
  }
  return written;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const written = await takeScreenshots();
  console.log(written.join('\n'));
}
