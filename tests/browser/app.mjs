// Shared by the browser tests: the built web UI served on 127.0.0.1 and
// opened in Debian's Chromium (playwright-core), offline. Every request not
// to our server is recorded and refused; page errors and console errors are
// recorded; each test file asserts both lists empty at its end.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { chromiumPath, distDir, ensureWwwBuilt, outDir } from './build.mjs';
import { serveStatic } from './static-server.mjs';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic'];

/**
 * Builds www/dist/ if needed, serves it, launches Chromium with a fresh
 * profile and opens `index.html` + `hash` in its first page. `close()`
 * stops all of it and removes the profile.
 */
export async function openApp(hash = '') {
  ensureWwwBuilt();
  fs.mkdirSync(outDir, { recursive: true });
  const foreignRequests = [];
  const pageErrors = [];
  const watch = (p) => {
    p.on('pageerror', (e) => pageErrors.push(`pageerror: ${e.message}`));
    p.on('console', (m) => { if (m.type() === 'error') pageErrors.push(`console: ${m.text()}`); });
  };
  const server = await serveStatic(distDir, { lifetimeMs: 240_000 });
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ev-chromium-'));
  let context;
  const close = async () => {
    await context?.close().catch(() => {});
    await server.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  };
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: chromiumPath(), headless: true, args: ARGS, viewport: { width: 1280, height: 900 }, acceptDownloads: true, timeout: 60_000,
    });
    context.setDefaultTimeout(15_000);
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(server.url)) return route.continue();
      foreignRequests.push(url);
      return route.abort();
    });
    const page = context.pages()[0] ?? await context.newPage();
    watch(page);
    await page.goto(`${server.url}index.html${hash}`);
    return { server, context, page, foreignRequests, pageErrors, watch, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** Loads one of the evidence mode's samples and waits for its run. */
export async function loadEvidenceSample(page, id) {
  const before = await page.$eval('.evidence-mode', (el) => Number(el.dataset.validations));
  await page.selectOption('select[id^="ev-sample"]', id);
  await page.click('#panel-evidence button:text-is("Load sample")');
  await page.waitForFunction((n) => Number(document.querySelector('.evidence-mode').dataset.validations) > n, before);
}

/**
 * For a test file of the evidence mode: opens the app before its tests (the
 * mode ready, `sample` loaded when given, then `onOpen(app)`) and closes it
 * after them; the returned object gets openApp's fields (page, server, …)
 * once open (node:test may start a file's other `before` hooks meanwhile:
 * take the page in `onOpen`). Call
 * `testClean(app)` last: no request left 127.0.0.1, no page error.
 */
export function evidenceApp({ sample = null, onOpen = () => {} } = {}) {
  const app = {};
  before(async () => {
    Object.assign(app, await openApp(''));
    await app.page.waitForSelector('.evidence-mode[data-state]');
    if (sample) await loadEvidenceSample(app.page, sample);
    onOpen(app);
  });
  after(async () => {
    await app.close?.();
  });
  return app;
}

/** The last test of a file: nothing was asked of another origin, and the page logged no error. */
export function testClean(app) {
  test('clean: no request left 127.0.0.1, no page errors', () => {
    assert.deepEqual(app.foreignRequests, []);
    assert.deepEqual(app.pageErrors, []);
  });
}

/** The evidence mode's two text boxes. */
export const SOURCE_BOX = 'textarea[id^="ev-source"]';
export const CLAIMS_BOX = 'textarea[id^="ev-claims"]';
