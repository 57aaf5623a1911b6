//! How much freed memory the allocator keeps, set once before any other thread starts.
//!
//! glibc gives the free memory at the top of a heap back to the kernel once it passes
//! `M_TRIM_THRESHOLD` (128 KiB to start with). A gzip encoder's tables are a few hundred KB,
//! made and dropped for every compressed answer, so each answer handed their pages back and the
//! next one faulted them in again: a JSON batch of 20 solved puzzles asked for with
//! `Accept-Encoding: gzip` took 209 µs of system time a request under `wrk`, against 59 µs
//! uncompressed. Keeping up to [`TRIM_THRESHOLD`] free at the top of each heap: 71 µs, and
//! 4,838 -> 7,725 requests a second. The cost is at most that much memory held per heap that
//! has been busy (glibc makes one per thread that allocates at once: here the runtime's
//! workers and the blocking pool's threads).

/// Free memory at the top of a heap that glibc keeps rather than returning it to the kernel.
pub const TRIM_THRESHOLD: usize = 1 << 20;

/// Sets [`TRIM_THRESHOLD`]; false if the allocator refused. Call it before any thread starts.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn keep_freed_memory() -> bool {
    let threshold = libc::c_int::try_from(TRIM_THRESHOLD).expect("a small threshold");
    // SAFETY: mallopt sets one of glibc's allocator parameters and reads no memory of ours; it is
    // called before the process starts other threads, as glibc asks of it.
    #[allow(unsafe_code)]
    let set = unsafe { libc::mallopt(libc::M_TRIM_THRESHOLD, threshold) };
    set == 1
}

/// Other allocators keep their own counsel: nothing to set.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn keep_freed_memory() -> bool {
    true
}
