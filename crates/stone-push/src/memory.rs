//! Memory a push freed, given back to the system between its phases.

/// Gives the memory the allocator keeps after freeing back to the system. glibc's malloc
/// keeps what a thread freed in that thread's arena for later: through a push of 100,000
/// resources the client's resident memory grew by ~50 MB over what it held (heaptrack:
/// 80 MB live, 136 MB resident), each batch leaving its freed pages behind (issue 27).
/// Called where a phase of a push has just freed a large part of what it held; a few
/// milliseconds each. Elsewhere than glibc, nothing.
pub fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim takes no pointer; it only releases free memory of the allocator
    // the process runs on (glibc's), which is thread-safe.
    unsafe {
        libc::malloc_trim(0);
    }
}
