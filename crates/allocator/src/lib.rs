//! The server's global allocator: mimalloc, asked for plain blocks whenever a plain block is
//! aligned enough.
//!
//! The `mimalloc` crate's allocator passes every request to mimalloc's aligned entry points.
//! In mimalloc 3 these take the small-block fast path only up to 1 KiB; above it, even a request
//! aligned to one byte goes through the over-allocating path for large alignments. The server
//! allocates many texts over a kilobyte at every move (views, events, messages): under load,
//! allocating and reallocating through the aligned entry points cost it about 3,260 instructions
//! a move (callgrind), through the plain ones 2,020. A plain block is always aligned to 8 bytes
//! (mimalloc's sizes are whole words), so any request aligned to at most 8 and at least that long
//! takes `mi_malloc`; the rest (tokio's cache-line-aligned tasks) keep the aligned entry points.

use libmimalloc_sys as ffi;
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// The alignment of every block `mi_malloc` returns of at least that many bytes.
const WORD: usize = 8;

/// mimalloc, with plain blocks for plainly aligned requests (see the crate's documentation).
#[derive(Debug, Clone, Copy, Default)]
pub struct Allocator;

/// Whether a plain block of `size` bytes meets `align`.
fn plain(size: usize, align: usize) -> bool {
    align <= WORD && align <= size
}

// SAFETY: each method passes its request to mimalloc, whose blocks meet the alignment asked:
// `plain` holds only when a plain block does, and the aligned entry points are used otherwise.
// Every block, however allocated, is freed with `mi_free`.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: mimalloc's entry points take any size and a power-of-two alignment.
        unsafe {
            if plain(layout.size(), layout.align()) {
                ffi::mi_malloc(layout.size()).cast()
            } else {
                ffi::mi_malloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `alloc`.
        unsafe {
            if plain(layout.size(), layout.align()) {
                ffi::mi_zalloc(layout.size()).cast()
            } else {
                ffi::mi_zalloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` came from this allocator, so from mimalloc.
        unsafe { ffi::mi_free(ptr.cast::<c_void>()) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from this allocator; the new block meets the alignment as in
        // `alloc` (`mi_realloc` moves the contents into a plain block when it must move them).
        unsafe {
            if plain(new_size, layout.align()) {
                ffi::mi_realloc(ptr.cast::<c_void>(), new_size).cast()
            } else {
                ffi::mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()).cast()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Allocator;
    use std::alloc::{GlobalAlloc, Layout};

    /// Every block meets its alignment, starts zeroed when asked, and keeps its contents through
    /// reallocations that shrink and grow it, for sizes and alignments either side of the plain
    /// blocks' limits (8 bytes, and mimalloc's small blocks' 1 KiB).
    #[test]
    #[allow(unsafe_code)]
    fn blocks_meet_their_alignment_and_keep_their_contents() {
        let sizes = [1, 7, 8, 9, 24, 100, 1023, 1024, 1025, 1500, 5000, 70_000];
        let aligns = [1, 2, 4, 8, 16, 32, 64, 128, 4096];
        for size in sizes {
            for align in aligns {
                for zeroed in [false, true] {
                    let mut layout = Layout::from_size_align(size, align).expect("a layout");
                    // SAFETY: sizes are not zero; each block is used within its size, reallocated
                    // with the layout it has, and freed once.
                    unsafe {
                        let mut block = if zeroed {
                            Allocator.alloc_zeroed(layout)
                        } else {
                            Allocator.alloc(layout)
                        };
                        assert!(!block.is_null());
                        assert_eq!(block as usize % align, 0, "{size} bytes at {align}");
                        if zeroed {
                            assert!((0..size).all(|i| *block.add(i) == 0), "{size} zeroed");
                        }
                        for i in 0..size {
                            *block.add(i) = i as u8;
                        }
                        for new_size in [size / 2 + 1, size * 3] {
                            let kept = layout.size().min(new_size);
                            block = Allocator.realloc(block, layout, new_size);
                            layout = Layout::from_size_align(new_size, align).expect("a layout");
                            assert_eq!(
                                block as usize % align,
                                0,
                                "{size} to {new_size} at {align}"
                            );
                            assert!((0..kept).all(|i| *block.add(i) == i as u8), "{size} kept");
                            for i in 0..new_size {
                                *block.add(i) = i as u8;
                            }
                        }
                        Allocator.dealloc(block, layout);
                    }
                }
            }
        }
    }
}
