// Work kept across reloads (issue 19): a mode's inputs and settings in the
// browser's own storage for this page, one record per mode. IndexedDB, not
// localStorage: a megabyte of source written to localStorage blocks the page
// for a long task on every save (it is synchronous), IndexedDB writes off the
// main thread. Long texts go in as Blobs, built a piece per task: put()
// copies a string value into its record on the main thread (about 20 ms a
// megabyte in Chromium: a long task for a 1 MB source), a Blob it only
// references. Storage may be missing (a private window, a policy) or full:
// saving then says so once, through `onProblem`, and the page keeps working.

import { debounce } from './dom.js';

/** The status line after a mode brought back its last work. */
export const RESTORED_NOTE = 'Restored your last work from this browser (Clear forgets it).';
/** The status line after Clear. */
export const CLEARED_NOTE = 'Cleared: nothing of this mode is kept in this browser now.';

/** Saving waits this long after the last edit. */
const SAVE_DELAY_MS = 400;
/** A string longer than this (UTF-16 units) is stored as a Blob. */
const BLOB_UNITS = 16_384;
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

/** A long string becomes a Blob this many UTF-16 units at a time, one piece per task (a few ms each on a loaded machine). */
export const PIECE_UNITS = 32_768;

/**
 * `text` as a Blob, built a piece at a time with a task between pieces (a
 * Blob encodes its text as UTF-8 at once: about 6 ms a megabyte), never
 * cutting a surrogate pair (half of one would be stored as U+FFFD).
 */
async function blobOf(text) {
  const pieces = [];
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + PIECE_UNITS);
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1])) end -= 1;
    pieces.push(new Blob([text.slice(at, end)]));
    at = end;
    if (at < text.length) await new Promise((resolve) => { setTimeout(resolve, 0); });
  }
  return new Blob(pieces, { type: 'text/plain' });
}

/** The Blobs of the last long strings stored: a text saved again unchanged (the source, while claims are edited) is not encoded again. */
const recentBlobs = new Map();
const RECENT_BLOBS = 4;

/** `text` as a Blob, from recentBlobs when it was stored lately. */
async function cachedBlobOf(text) {
  const had = recentBlobs.get(text);
  if (had) return had;
  const blob = await blobOf(text);
  recentBlobs.set(text, blob);
  if (recentBlobs.size > RECENT_BLOBS) recentBlobs.delete(recentBlobs.keys().next().value);
  return blob;
}

/** `value` with its long strings as Blobs (a record is a small tree of plain objects, arrays and values). */
export async function packed(value) {
  if (value instanceof Blob) return value; // a file as it was opened: stored as it is, read back as its text
  if (typeof value === 'string') return value.length > BLOB_UNITS ? cachedBlobOf(value) : value;
  if (Array.isArray(value)) {
    const out = [];
    for (const v of value) out.push(await packed(v));
    return out;
  }
  if (value !== null && typeof value === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = await packed(v);
    return out;
  }
  return value;
}

/** `packed`'s inverse: every Blob read back as its text. */
export async function unpacked(value) {
  if (value instanceof Blob) return value.text();
  if (Array.isArray(value)) return Promise.all(value.map(unpacked));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await unpacked(v)])));
  }
  return value;
}

/**
 * @param {string} key  the record's key (the mode's id)
 * @param {(message: string) => void} onProblem
 * @returns {{ load(): Promise<object|null>, save(read: () => object): void, clear(): Promise<void> }}
 *   `save(read)` stores `read()` a moment after the last call.
 */
export function savedWork(key, onProblem) {
  let reader = null;
  /** Counts Clears: a save that began before one is dropped. */
  let generation = 0;
  let warned = false;
  const write = debounce(async () => {
    if (!reader) return;
    const mine = generation;
    try {
      const record = await packed(reader());
      if (mine !== generation) return; // cleared meanwhile
      await withStore('readwrite', (store) => store.put(record, key));
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
        return value !== null && typeof value === 'object' ? await unpacked(value) : null;
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
      generation++;
      try {
        await withStore('readwrite', (store) => store.delete(key));
      } catch {
        // nothing stored, nothing to clear
      }
    },
  };
}
