//! Whether a CUDA library can be used, the same way however cudarc reaches it.
//!
//! cudarc opens the libraries at first use under its `dynamic-loading` mode (ours by default, through
//! `fallback-dynamic-loading`) and panics when one is missing; under `dynamic-linking` (which
//! candle-core's `cuda` feature turns on, and which then wins for the whole build) they are linked
//! into the binary and cudarc has no presence check. Asking the dynamic loader for the library under
//! the names cudarc tries answers both: a linked library is already loaded under its SONAME.
//!
//! ```
//! // whatever the machine has, the answer is a plain bool (no panic when a library is missing)
//! let nvrtc = cute_gpu::libs::present(&["nvrtc"]);
//! assert_eq!(nvrtc, cute_gpu::libs::present(&["nvrtc"]));
//! assert!(!cute_gpu::libs::present(&["cute-no-such-library"]));
//! ```

use std::env::consts::{DLL_PREFIX, DLL_SUFFIX};

/// The file names cudarc 0.19 tries for `name` (`cuda`, `nvrtc`, `cublas`, ...), CUDA 13 as our
/// cudarc features pin it.
fn candidates(name: &str) -> Vec<String> {
    let (p, s) = (DLL_PREFIX, DLL_SUFFIX);
    let mut v = vec![
        format!("{p}{name}{s}"),
        format!("{p}{name}64{s}"),
        format!("{p}{name}64_13{s}"),
        format!("{p}{name}64_130{s}"),
        format!("{p}{name}64_130_0{s}"),
        format!("{p}{name}64_12{s}"),
        format!("{p}{name}64_11{s}"),
        format!("{p}{name}64_10{s}"),
        format!("{p}{name}64_9{s}"),
    ];
    v.extend(["13", "12", "11", "10", "9", "1"].map(|m| format!("{p}{name}{s}.{m}")));
    v
}

/// Whether one of `names` (cudarc's names of one library, e.g. `["cuda", "nvcuda"]`) can be opened.
///
/// ```
/// // No library of this name exists anywhere.
/// assert!(!cute_gpu::libs::present(&["no-such-cuda-library"]));
/// ```
pub fn present(names: &[&str]) -> bool {
    names.iter().flat_map(|n| candidates(n)).any(|c| {
        // SAFETY: opening a CUDA library runs only its initializers, as cudarc's own loading does.
        unsafe { libloading::Library::new(c) }.is_ok()
    })
}
