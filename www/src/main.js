// The page shell: a tab per mode (www/src/modes/index.js), the WAI-ARIA tabs
// pattern (arrow keys, Home, End move between tabs; Tab moves into the
// panel), the selected mode in the URL hash (#evidence); the theme switch.

import { h } from './dom.js';
import { modes } from './modes/index.js';
import { installJudgeHook } from './modes/judge/registry.js';

// window.evidenceValidator.registerJudge: a host page's own jurors for the
// judge view, registrable before the view is opened (www/README.md).
installJudgeHook();

// Every mode needs the library: its wasm is fetched and compiled (library.js)
// while the first mode's own chunk loads, not after it. A failure is the
// mode's to report (its import of library.js fails the same way).
import(/* webpackChunkName: "library" */ './library.js').catch(() => {});

/** The theme chosen in the header ('' follows the system), kept in this browser. */
const THEME_KEY = 'evidence-validator:theme';
const THEMES = [['', 'System'], ['light', 'Light'], ['dark', 'Dark']];

/** Sets <html data-theme> (style.css only switches color-scheme on it). */
function applyTheme(theme) {
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
}

/** The header's theme switch; its choice survives a reload (a few bytes: localStorage). */
function themeSwitch() {
  let kept = '';
  try {
    kept = localStorage.getItem(THEME_KEY) ?? '';
  } catch {
    // no storage: the system setting, for this visit
  }
  if (!THEMES.some(([v]) => v === kept)) kept = '';
  applyTheme(kept);
  const select = h('select', {
    id: 'theme-select',
    onchange: () => {
      applyTheme(select.value);
      try {
        if (select.value) localStorage.setItem(THEME_KEY, select.value);
        else localStorage.removeItem(THEME_KEY);
      } catch {
        // not kept: the choice holds while the page is open
      }
    },
  }, THEMES.map(([v, label]) => h('option', { value: v }, label)));
  select.value = kept;
  return h('div', { class: 'theme-switch' }, h('label', { for: 'theme-select' }, 'Theme'), select);
}

function start() {
  document.querySelector('.app-header').append(themeSwitch());
  const tablist = document.getElementById('mode-tabs');
  const panels = document.getElementById('mode-panels');
  const status = document.getElementById('app-status');
  const mounted = new Map();

  const tabs = modes.map((mode) => {
    const tab = h('button', {
      type: 'button', role: 'tab', id: `tab-${mode.id}`, 'aria-controls': `panel-${mode.id}`,
      'aria-selected': 'false', tabindex: '-1', title: mode.title,
      onclick: () => select(mode.id, true),
      onkeydown: (e) => keyNav(e, mode.id),
    }, mode.label);
    const panel = h('section', {
      role: 'tabpanel', id: `panel-${mode.id}`, 'aria-labelledby': `tab-${mode.id}`, hidden: true,
      class: 'mode-panel',
    });
    tablist.append(tab);
    panels.append(panel);
    return { mode, tab, panel };
  });

  function keyNav(e, id) {
    const i = tabs.findIndex((t) => t.mode.id === id);
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = tabs[(to + tabs.length) % tabs.length];
    select(next.mode.id, true);
    next.tab.focus();
  }

  async function select(id, updateHash) {
    const current = tabs.find((t) => t.mode.id === id) ?? tabs[0];
    for (const t of tabs) {
      const on = t === current;
      t.tab.setAttribute('aria-selected', String(on));
      t.tab.tabIndex = on ? 0 : -1;
      t.panel.hidden = !on;
    }
    if (updateHash && location.hash !== `#${current.mode.id}`) history.replaceState(null, '', `#${current.mode.id}`);
    if (mounted.has(current.mode.id)) return;
    const ctx = { setStatus: (text) => { status.textContent = text; } };
    const loading = (async () => {
      current.panel.replaceChildren(h('p', { class: 'loading' }, `Loading ${current.mode.label}…`));
      try {
        const module = await current.mode.load();
        current.panel.replaceChildren();
        await module.mount(current.panel, ctx);
      } catch (e) {
        mounted.delete(current.mode.id);
        current.panel.replaceChildren(h('p', { class: 'error', role: 'alert' },
          `Could not start ${current.mode.label}: ${e?.message ?? e}. Reload the page; if this persists, ` +
          'use a browser with WebAssembly enabled (a recent Chrome, Edge, Firefox or Safari).'));
        throw e;
      }
    })();
    mounted.set(current.mode.id, loading);
    await loading;
  }

  window.addEventListener('hashchange', () => select(location.hash.slice(1), false));
  select(location.hash.slice(1), false);
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
