//! The benchmark examples' counting global allocator, shared by
//! `examples/memory.rs` and `examples/scaling.rs` (each includes it with
//! `#[path]`; a directory of `examples/` without a `main.rs` is not an
//! example of its own).
//!
//! [`current`] is the heap held now; [`start_peak`] resets the peak to it,
//! and [`peak`] is the most held since.
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        CURRENT.fetch_sub(layout.size(), Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                CURRENT.fetch_sub(layout.size() - new_size, Relaxed);
            }
        }
        p
    }
}

fn grew(by: usize) {
    let now = CURRENT.fetch_add(by, Relaxed) + by;
    PEAK.fetch_max(now, Relaxed);
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Bytes of heap held now.
pub fn current() -> usize {
    CURRENT.load(Relaxed)
}

/// Starts a new peak at what is held now, and returns that.
pub fn start_peak() -> usize {
    let now = current();
    PEAK.store(now, Relaxed);
    now
}

/// The most heap held since the last [`start_peak`].
pub fn peak() -> usize {
    PEAK.load(Relaxed)
}

/// The process's peak RSS in bytes (`VmHWM` of `/proc/self/status`), if
/// the system reports it.
pub fn peak_rss() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
    kb.trim().trim_end_matches("kB").trim().parse::<usize>().ok().map(|kb| kb * 1024)
}
