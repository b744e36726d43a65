// Issue 18: a text-fragment link the library generates, opened in Chromium,
// scrolls to the passage and highlights it. The page is served on
// 127.0.0.1; `::target-text` is styled magenta so the highlight is seen in
// the screenshot's pixels (Chromium exposes no DOM node for it).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import sharp from 'sharp';
import { chromiumPath, root } from './build.mjs';
import { serveStatic } from './static-server.mjs';

const lib = await import(pathToFileURL(path.join(root, 'pkg', 'nodejs', 'index.mjs')).href);
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic'];

const filler = (n, tag) => Array.from({ length: n }, (_, i) => `<p>Filler ${tag} paragraph ${i} about weather and trains.</p>`).join('\n');
const page = `<!doctype html><html><head><meta charset="utf-8"><title>fragment</title>
<style>body { font: 18px sans-serif; } ::target-text { background-color: rgb(255, 0, 255); color: rgb(0, 0, 0); }</style>
</head><body>
<p id="first">Early on, the results were final and binding for everyone.</p>
${filler(60, 'a')}
<p id="second">Later, again: the results were final and binding, as agreed.</p>
${filler(60, 'b')}
<p id="budget">The state-of-the-art R&amp;D budget, as planned, grew fast.</p>
${filler(60, 'c')}
</body></html>`;

/** Pixels of the `::target-text` colour in raw image data. */
function magentaIn(data, channels) {
  let n = 0;
  for (let i = 0; i < data.length; i += channels) {
    if (data[i] > 200 && data[i + 1] < 60 && data[i + 2] > 200) n++;
  }
  return n;
}

const claim = (quote, extra = {}) => ({ id: 'EV001', task_id: 'P1.T001', quote, evidence_type: 'direct_quote', ...extra });

function fragmentOf(quote, extra) {
  const r = lib.validateEvidence(page, { source_metadata: { format: 'html' }, claims: [claim(quote, extra)] }, null);
  const c = r.validated_claims[0];
  assert.equal(c.validation_status, 'VALIDATED', JSON.stringify(c));
  return c.match_details.text_fragment;
}

test('Chromium scrolls to and highlights the passage of a generated text fragment', { timeout: 120_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ev-fragment-'));
  fs.writeFileSync(path.join(dir, 'index.html'), page);
  const server = await serveStatic(dir, { lifetimeMs: 110_000 });
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ev-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: chromiumPath(), headless: true, args: ARGS, viewport: { width: 1000, height: 700 }, timeout: 60_000,
    });
    const tab = context.pages()[0] ?? await context.newPage();
    const cases = [
      // the quote occurs twice: prefix-/-suffix pick the second place
      ['second', fragmentOf('the results were final and binding', { prefix: 'again: ' }), ['-,', ',-']],
      // '-', '&', ',' and spaces percent-encoded
      ['budget', fragmentOf('state-of-the-art R&D budget, as planned'), ['%2D', '%26', '%2C', '%20']],
    ];
    // control: a directive for text the page lacks scrolls nowhere and
    // highlights nothing (so what follows can fail)
    await tab.goto(`${server.url}index.html#:~:text=words%20not%20on%20the%20page`);
    await tab.waitForTimeout(1000);
    assert.equal(await tab.evaluate(() => window.scrollY), 0);
    const control = await sharp(await tab.screenshot()).raw().toBuffer({ resolveWithObject: true });
    assert.equal(magentaIn(control.data, control.info.channels), 0);
    for (const [id, fragment, mustHold] of cases) {
      for (const s of mustHold) assert.ok(fragment.includes(s), `${fragment} lacks ${s}`);
      await tab.goto('about:blank');
      await tab.goto(`${server.url}index.html${fragment}`);
      // Chromium applies the directive after load; wait until it scrolled
      await tab.waitForFunction(() => window.scrollY > 0, null, { timeout: 10_000 });
      await tab.waitForTimeout(300);
      const box = await tab.$eval(`#${id}`, (el) => {
        const r = el.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height, vh: window.innerHeight };
      });
      assert.ok(box.y >= 0 && box.y + box.height <= box.vh, `#${id} not in view: ${JSON.stringify(box)}`);
      const firstTop = await tab.$eval('#first', (el) => el.getBoundingClientRect().bottom);
      assert.ok(firstTop < 0, 'the first occurrence is scrolled away');
      const png = await tab.screenshot({ clip: { x: box.x, y: box.y, width: box.width, height: box.height } });
      const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
      const magenta = magentaIn(data, info.channels);
      assert.ok(magenta > 200, `#${id}: only ${magenta} highlighted pixels`);
      // and nothing else on screen is highlighted outside the passage's paragraph
      const whole = await sharp(await tab.screenshot()).raw().toBuffer({ resolveWithObject: true });
      let outside = 0;
      for (let y = 0; y < whole.info.height; y++) {
        if (y >= box.y && y < box.y + box.height) continue;
        for (let x = 0; x < whole.info.width; x++) {
          const i = (y * whole.info.width + x) * whole.info.channels;
          if (whole.data[i] > 200 && whole.data[i + 1] < 60 && whole.data[i + 2] > 200) outside++;
        }
      }
      assert.equal(outside, 0, `#${id}: highlight outside the passage`);
    }
  } finally {
    await context?.close().catch(() => {});
    await server.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
