//! A global allocator for the memory tests: it counts the bytes live at once and
//! refuses any allocation past [`CAP`], so a propagator that sizes anything by a
//! domain's span (four billion values, gigabytes) fails at once instead of swapping.
//! A test binary declares `#[global_allocator] static HEAP: Capped = Capped::new();`
//! and measures with [`peak_of`].

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The most heap this binary may hold at once: far below what one span-sized array
/// of the whole `i32` range takes (4 GiB of `i8`), far above what the models need.
pub const CAP: usize = 256 << 20;

/// The target of `docs/performance.md`: each model's peak heap, measured here.
pub const TARGET: usize = 50 << 20;

pub struct Capped {
    live: AtomicUsize,
    peak: AtomicUsize,
}

// SAFETY: every call is passed on to `System`; only the counters are added.
unsafe impl GlobalAlloc for Capped {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = self.live.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        if live > CAP {
            self.live.fetch_sub(layout.size(), Ordering::Relaxed);
            return std::ptr::null_mut();
        }
        self.peak.fetch_max(live, Ordering::Relaxed);
        // SAFETY: the caller's layout, as `GlobalAlloc::alloc` requires.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        self.live.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: `ptr` came from `alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

impl Capped {
    pub const fn new() -> Capped {
        Capped {
            live: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
        }
    }
}

/// One model at a time, so that each peak is its own.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Runs `f` alone and returns its result with the heap's peak above where it started.
pub fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let start = crate::HEAP.live.load(Ordering::Relaxed);
    crate::HEAP.peak.store(start, Ordering::Relaxed);
    let result = f();
    (result, crate::HEAP.peak.load(Ordering::Relaxed) - start)
}
