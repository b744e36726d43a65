// Issue 19, point 5: the UI looks right everywhere, in Chromium against
// www/dist/:
//   - at 390 px and at 1280 px, no mode (with its sample loaded) is wider
//     than the screen; each mode's inputs are beside its results at 1280 px
//     and above them at 390 px; at 1280 px the header is one row in
//     every mode;
//   - the theme follows the system setting (prefers-color-scheme), the
//     header's switch overrides it (kept across a reload), and style.css
//     writes each colour once (light-dark()), for both ways of choosing;
//   - a favicon, and no request for /favicon.ico;
//   - an error says what to do, and names its code once.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { root } from './build.mjs';
import { evidenceApp, testClean } from './app.mjs';

let page;
const app = evidenceApp({ onOpen: (a) => { page = a.page; } });

/** What shows each mode's sample (the cite mode has its sample in place: run it with the demo host). */
const SHOW = { evidence: 'button:text-is("Load sample") >> nth=0', transcript: 'button:text-is("Load sample") >> nth=0', judge: 'button:text-is("Load sample") >> nth=0', cite: 'button.cite-run' };

for (const [width, height] of [[390, 844], [1280, 900]]) {
  test(`at ${width} px no mode is wider than the screen`, async () => {
    await page.setViewportSize({ width, height });
    for (const mode of Object.keys(SHOW)) {
      await page.goto(`${app.server.url}index.html#${mode}`);
      await page.click(`#panel-${mode} ${SHOW[mode]}`);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(500);
      const wide = await page.evaluate(() => {
        const over = [...document.querySelectorAll('body *')].filter((el) => {
          const r = el.getBoundingClientRect();
          return r.width > 0 && r.right > document.documentElement.clientWidth + 1 && !el.closest('[hidden]');
        });
        return { scrollWidth: document.documentElement.scrollWidth, over: over.slice(0, 5).map((el) => `${el.tagName}.${el.className}`) };
      });
      assert.ok(wide.scrollWidth <= width, `${mode}: ${wide.scrollWidth} px wide (${wide.over.join(', ')})`);
      if (width >= 1280) {
        // the header is one row: the status line (the jury's verdict, a version) never pushes the theme switch under the title
        const rows = await page.evaluate(() => ['.brand', '#mode-tabs', '.theme-switch'].map((s) => document.querySelector(s).getBoundingClientRect().bottom));
        assert.ok(Math.max(...rows) - Math.min(...rows) < 20, `${mode}: header rows end at ${rows.join(', ')} px`);
      }
    }
    // every mode: two columns (inputs beside the results) on a wide screen, one above the other on a phone
    for (const mode of Object.keys(SHOW)) {
      await page.goto(`${app.server.url}index.html#${mode}`);
      await page.waitForSelector(`#panel-${mode} .results`);
      const [inputs, results] = await Promise.all([`#panel-${mode} .inputs`, `#panel-${mode} .results`].map((s) => page.$eval(s, (el) => el.getBoundingClientRect().toJSON())));
      if (width >= 1280) assert.ok(results.left >= inputs.right && results.top < inputs.bottom, `${mode}, side by side: ${JSON.stringify({ inputs, results })}`);
      else assert.ok(results.top >= inputs.bottom, `${mode}, stacked: ${JSON.stringify({ inputs, results })}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });
}

test('the theme follows the system setting', async () => {
  const colours = async () => page.evaluate(() => {
    const s = getComputedStyle(document.body);
    return { bg: s.backgroundColor, text: s.color };
  });
  await page.emulateMedia({ colorScheme: 'light' });
  const light = await colours();
  assert.equal(light.bg, 'rgb(255, 255, 255)');
  await page.emulateMedia({ colorScheme: 'dark' });
  const dark = await colours();
  const luminance = (rgb) => {
    const [r, g, b] = rgb.match(/\d+/g).map(Number).map((c) => {
      const v = c / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  assert.ok(luminance(dark.bg) < 0.05, `dark background ${dark.bg}`);
  const contrast = (luminance(dark.text) + 0.05) / (luminance(dark.bg) + 0.05);
  assert.ok(contrast >= 7, `text contrast ${contrast.toFixed(1)}:1`);
  await page.emulateMedia({ colorScheme: 'light' });
});

test('the theme switch overrides the system setting and is kept; each colour is written once', async () => {
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.emulateMedia({ colorScheme: 'light' });
  const light = await bg();
  await page.emulateMedia({ colorScheme: 'dark' });
  const dark = await bg();
  assert.notEqual(light, dark);
  // system dark, switch light: the light colours
  await page.selectOption('#theme-select', 'light');
  assert.equal(await bg(), light);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.selectOption('#theme-select', 'dark');
  assert.equal(await bg(), dark);
  await page.reload();
  await page.waitForSelector('#theme-select');
  assert.equal(await page.$eval('#theme-select', (s) => s.value), 'dark');
  assert.equal(await bg(), dark, 'kept across a reload');
  await page.selectOption('#theme-select', '');
  assert.equal(await bg(), light, 'System follows the system again');

  // one declaration per custom property, no colour block repeated for a media query or a selector
  const css = fs.readFileSync(path.join(root, 'www', 'style.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  const declared = [...css.matchAll(/(--[\w-]+)\s*:/g)].map((m) => m[1]);
  assert.ok(declared.length > 10);
  assert.deepEqual(declared.filter((d, i) => declared.indexOf(d) !== i), [], 'custom properties declared twice');
  assert.doesNotMatch(css, /prefers-color-scheme/);
});

test('a favicon, and nothing asked for /favicon.ico', async () => {
  const href = await page.$eval('link[rel="icon"]', (l) => l.getAttribute('href'));
  assert.match(href, /^data:image\/svg\+xml,/);
  assert.ok(!app.server.requests.some((r) => r.includes('favicon')), app.server.requests.join('\n'));
});

test('an error says what to do and names its code once', async () => {
  await page.goto(`${app.server.url}index.html#evidence`);
  await page.waitForSelector('.evidence-mode[data-state]');
  await page.click('#panel-evidence button:text-is("Load sample")');
  await page.waitForFunction(() => document.querySelector('.evidence-mode').dataset.state === 'ok');
  await page.click('details.config summary');
  await page.fill('input[data-config="fuzzy_matching.similarity_threshold"]', '5');
  await page.waitForFunction(() => document.querySelector('.evidence-mode').dataset.state === 'error');
  const text = await page.textContent('.problem');
  assert.match(text, /^Thresholds: /);
  assert.match(text, /similarity_threshold/);
  assert.match(text, /Change the highlighted setting under Matching thresholds, or reset them to the defaults/);
  assert.equal(text.split('CONFIGURATION_ERROR').length - 1, 1, text);
  await page.click('button:text-is("Reset to defaults")');

  // the transcript mode: where, the code once, the library's message, what to do
  await page.goto(`${app.server.url}index.html#transcript`);
  await page.waitForSelector('.transcript-mode[data-state]');
  await page.fill('textarea[id^="tx-transcript"]', 'not a transcript {');
  await page.fill('textarea[id^="tx-items"]', '[{"evidence_quote": "a transcript", "evidence_timestamp": 1}]');
  await page.waitForFunction(() => document.querySelector('.transcript-mode').dataset.state === 'error');
  const tx = await page.textContent('.transcript-mode .problem');
  assert.match(tx, /^Transcript: DOCUMENT_PARSING_ERROR: /);
  assert.match(tx, /Check the transcript, or pick its format under Format instead of Auto-detect$/);
  assert.equal(tx.split('DOCUMENT_PARSING_ERROR').length - 1, 1, tx);
  await page.click('.transcript-mode button.clear-button');
});

testClean(app);
