// Shared by the browser tests of issue 19 (the four modes' workers): the
// main thread's long tasks, recorded by a PerformanceObserver of type
// 'longtask' in the page.

/** Starts recording the page's main-thread long tasks (their durations, ms). */
export async function observeLongTasks(page) {
  await page.evaluate(() => {
    window.longTasks = [];
    window.taskObserver?.disconnect();
    window.taskObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.longTasks.push(Math.round(e.duration));
    });
    window.taskObserver.observe({ type: 'longtask' });
  });
}

/**
 * A frame after the result is on screen, and a second for the save of the
 * work (storage.js: 400 ms after the last edit, a piece per task): the long
 * tasks seen since observeLongTasks.
 */
export async function longTasksSince(page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 1000))));
  return page.evaluate(() => { window.taskObserver.disconnect(); return window.longTasks; });
}
