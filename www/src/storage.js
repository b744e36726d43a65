// Work kept across reloads (issue 19): a mode's inputs and settings in the
// browser's own storage for this page, one record per mode. IndexedDB, not
// localStorage: a megabyte of source written to localStorage blocks the page
// for a long task on every save (it is synchronous), IndexedDB writes off the
// main thread. Storage may be missing (a private window, a policy) or full:
// saving then says so once, through `onProblem`, and the page keeps working.

import { debounce } from './dom.js';

/** The status line after a mode brought back its last work. */
export const RESTORED_NOTE = 'Restored your last work from this browser (Clear forgets it).';
/** The status line after Clear. */
export const CLEARED_NOTE = 'Cleared: nothing of this mode is kept in this browser now.';

/** Saving waits this long after the last edit. */
const SAVE_DELAY_MS = 400;
const DB_NAME = 'evidence-validator';
const STORE = 'work';

/** The database, opened once (null when the browser has none for us). */
let opened = null;
function database() {
  opened ??= new Promise((resolve) => {
    try {
      const req = indexedDB.open(DB_NAME, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => resolve(null);
      req.onblocked = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
  return opened;
}

/** Runs `fn(store)` in a transaction; resolves to the request's result, rejects with its error. */
async function withStore(mode, fn) {
  const db = await database();
  if (!db) throw new Error('this browser gives the page no storage');
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const req = fn(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(req.result);
    tx.onerror = () => reject(tx.error ?? req.error);
    tx.onabort = () => reject(tx.error ?? req.error);
  });
}

/**
 * @param {string} key  the record's key (the mode's id)
 * @param {(message: string) => void} onProblem
 * @returns {{ load(): Promise<object|null>, save(read: () => object): void, clear(): Promise<void> }}
 *   `save(read)` stores `read()` a moment after the last call.
 */
export function savedWork(key, onProblem) {
  let reader = null;
  let warned = false;
  const write = debounce(async () => {
    if (!reader) return;
    try {
      await withStore('readwrite', (store) => store.put(reader(), key));
      warned = false;
    } catch (e) {
      if (warned) return;
      warned = true;
      onProblem(e?.name === 'QuotaExceededError'
        ? 'Not saved for the next visit: the browser\'s storage for this page is full (the work stays while the page is open).'
        : `Not saved for the next visit: the browser refused to store it (${e?.message ?? e}).`);
    }
  }, SAVE_DELAY_MS);
  return {
    async load() {
      try {
        const value = await withStore('readonly', (store) => store.get(key));
        return value !== null && typeof value === 'object' ? value : null;
      } catch {
        return null;
      }
    },
    save(read) {
      reader = read;
      write();
    },
    async clear() {
      write.cancel();
      reader = null;
      try {
        await withStore('readwrite', (store) => store.delete(key));
      } catch {
        // nothing stored, nothing to clear
      }
    },
  };
}
