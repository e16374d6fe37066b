//! The on-disk CUBIN cache with real NVRTC: a second lookup loads the file instead of compiling; a
//! corrupt or stale file is rebuilt, never trusted. Without libnvrtc: a loud SKIP, or a failure when CI=true.
#![cfg(feature = "nvrtc")]

use cute_gpu::cubin_cache::CubinCache;
use cute_gpu::kernels::copy::{CopySpec, generate_copy};

#[test]
fn second_lookup_hits_and_corrupt_files_are_rebuilt() {
    if !cute_gpu::nvrtc::nvrtc_available() {
        let msg = "libnvrtc cannot be loaded: source .ci/nvrtc.sh (installs NVRTC 13.0 from PyPI)";
        assert!(
            std::env::var("CI").map(|v| v != "true").unwrap_or(true),
            "CI=true and {msg}"
        );
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "\n***** SKIP cubin cache test: {msg} *****\n"
        );
        return;
    }
    let l: cute_layout_core::Layout = "(_4,1000):(_1,_4)".parse().unwrap();
    let k = generate_copy(&CopySpec::new(l.clone(), l, 4)).unwrap();
    let dir = std::env::temp_dir().join(format!("cute-cubin-cache-{}", std::process::id()));
    let cache = CubinCache::at(dir.clone());
    let (first, hit) = cache.get_or_compile(&k.source, &k.name, "sm_80").unwrap();
    assert!(!hit, "an empty cache cannot hit");
    let (second, hit) = cache.get_or_compile(&k.source, &k.name, "sm_80").unwrap();
    assert!(hit, "the second lookup must come from the file");
    assert_eq!(
        (&first.cubin, &first.report),
        (&second.cubin, &second.report)
    );
    // another architecture is another file
    let (_, hit) = cache.get_or_compile(&k.source, &k.name, "sm_90a").unwrap();
    assert!(!hit);
    // corrupt the file: rebuilt (a miss), then trusted again
    let path = cache.path("sm_80", &k.source);
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x5a;
    std::fs::write(&path, &bytes).unwrap();
    let (rebuilt, hit) = cache.get_or_compile(&k.source, &k.name, "sm_80").unwrap();
    assert!(!hit, "a corrupt file must not be trusted");
    assert_eq!(rebuilt.cubin, first.cubin);
    assert!(cache.get_or_compile(&k.source, &k.name, "sm_80").unwrap().1);
    let _ = std::fs::remove_dir_all(&dir);
}
