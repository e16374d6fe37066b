//! The on-disk cache of compiled kernels: a second process loads the CUBIN instead of running NVRTC again.
//!
//! One file per (architecture, source): `<dir>/<hash>.cubin`, where the hash is FNV-1a 64 of the
//! architecture, the NVRTC version and the source. A file holds a magic line, the ptxas report, the
//! CUBIN's length and hash, then the CUBIN. A file that is short, has another magic, or whose CUBIN does
//! not match its hash is not trusted: the kernel is compiled again and the file rewritten (atomically,
//! through a temporary file and a rename). The directory is `$CUTE_CACHE_DIR`, else
//! `$XDG_CACHE_HOME/cute-rs`, else `$HOME/.cache/cute-rs`; `CUTE_CACHE_DIR=off` disables the cache.
//!
//! ```
//! let dir = std::env::temp_dir().join(format!("cute-doc-cache-{}", std::process::id()));
//! let cache = cute_gpu::cubin_cache::CubinCache::at(dir.clone());
//! assert!(cache.path("sm_90a", "__global__ void k() {}").starts_with(&dir));
//! ```

use crate::error::Result;
use crate::nvrtc::{Compiled, PtxasReport, compile};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 16] = b"CUTE-CUBIN-v1\n\0\0";

/// FNV-1a, 64 bits: a stable hash for file names and integrity checks (not cryptographic).
///
/// ```
/// use cute_gpu::cubin_cache::fnv1a;
/// assert_eq!(fnv1a(&[]), 0xcbf2_9ce4_8422_2325); // the FNV offset basis
/// assert_eq!(fnv1a(&[b"sm_90a", b"src"]), fnv1a(&[b"sm_90a", b"src"]));
/// assert_ne!(fnv1a(&[b"sm_90a", b"src"]), fnv1a(&[b"sm_90", b"asrc"])); // parts are delimited
/// ```
pub fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for &b in *p {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A directory of compiled kernels.
///
/// ```
/// use cute_gpu::cubin_cache::CubinCache;
/// let dir = std::env::temp_dir().join("cute-doc-cache");
/// let cache = CubinCache::at(dir.clone());
/// let p = cache.path("sm_80", "__global__ void k() {}");
/// assert_eq!((p.parent(), p.extension().and_then(|e| e.to_str())), (Some(dir.as_path()), Some("cubin")));
/// ```
#[derive(Clone, Debug)]
pub struct CubinCache {
    dir: Option<PathBuf>,
}

impl CubinCache {
    /// The cache in the directory the environment names (see the module docs), or a disabled cache.
    ///
    /// ```
    /// use cute_gpu::cubin_cache::CubinCache;
    /// let c = CubinCache::from_env();
    /// match std::env::var("CUTE_CACHE_DIR").as_deref() {
    ///     Ok("off") => assert!(c.dir().is_none()),
    ///     Ok(d) if !d.is_empty() => assert_eq!(c.dir(), Some(std::path::Path::new(d))),
    ///     _ => {} // $XDG_CACHE_HOME/cute-rs or $HOME/.cache/cute-rs
    /// }
    /// ```
    pub fn from_env() -> CubinCache {
        let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
        let dir = match var("CUTE_CACHE_DIR") {
            Some(v) if v == "off" => None,
            Some(v) => Some(PathBuf::from(v)),
            None => var("XDG_CACHE_HOME")
                .map(|x| PathBuf::from(x).join("cute-rs"))
                .or_else(|| var("HOME").map(|h| PathBuf::from(h).join(".cache").join("cute-rs"))),
        };
        CubinCache { dir }
    }

    /// The directory, `None` when the cache is off.
    ///
    /// ```
    /// use cute_gpu::cubin_cache::CubinCache;
    /// let dir = std::env::temp_dir().join("cute-doc-cache");
    /// assert_eq!(CubinCache::at(dir.clone()).dir(), Some(dir.as_path()));
    /// ```
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The cache in `dir`.
    ///
    /// ```
    /// use cute_gpu::cubin_cache::CubinCache;
    /// let cache = CubinCache::at("/tmp/my-kernels".into());
    /// assert!(cache.path("sm_90a", "src").starts_with("/tmp/my-kernels"));
    /// ```
    pub fn at(dir: PathBuf) -> CubinCache {
        CubinCache { dir: Some(dir) }
    }

    /// The file that holds the kernel `source` compiled for `arch`.
    ///
    /// ```
    /// use cute_gpu::cubin_cache::CubinCache;
    /// let cache = CubinCache::at(std::env::temp_dir());
    /// assert_eq!(cache.path("sm_80", "a"), cache.path("sm_80", "a"));
    /// assert_ne!(cache.path("sm_80", "a"), cache.path("sm_90a", "a")); // one file per (arch, source)
    /// ```
    pub fn path(&self, arch: &str, source: &str) -> PathBuf {
        let version = crate::nvrtc::nvrtc_version_string();
        let h = fnv1a(&[arch.as_bytes(), version.as_bytes(), source.as_bytes()]);
        self.dir
            .clone()
            .unwrap_or_default()
            .join(format!("{h:016x}.cubin"))
    }

    /// The compiled kernel: from the cache when a trusted file is there, else compiled with NVRTC and
    /// stored. Returns whether it came from the cache.
    ///
    /// ```
    /// use cute_gpu::{cubin_cache::CubinCache, nvrtc::nvrtc_available};
    /// let dir = std::env::temp_dir().join(format!("cute-doc-cache-goc-{}", std::process::id()));
    /// let cache = CubinCache::at(dir.clone());
    /// let src = r#"extern "C" __global__ void k(float* x) { x[threadIdx.x] = 1.0f; }"#;
    /// if nvrtc_available() {
    ///     let (first, hit) = cache.get_or_compile(src, "k", "sm_80").unwrap();
    ///     let (second, hit2) = cache.get_or_compile(src, "k", "sm_80").unwrap();
    ///     assert!(!hit && hit2 && first.cubin == second.cubin); // compiled once, then read back
    /// } else {
    ///     assert!(cache.get_or_compile(src, "k", "sm_80").is_err()); // no libnvrtc, nothing cached
    /// }
    /// let _ = std::fs::remove_dir_all(dir);
    /// ```
    pub fn get_or_compile(&self, source: &str, name: &str, arch: &str) -> Result<(Compiled, bool)> {
        let Some(_) = &self.dir else {
            return Ok((compile(source, name, arch)?, false));
        };
        let path = self.path(arch, source);
        if let Some(c) = read(&path) {
            return Ok((c, true));
        }
        let compiled = compile(source, name, arch)?;
        // a cache that cannot be written is not an error: the kernel is compiled either way
        let _ = write(&path, &compiled);
        Ok((compiled, false))
    }
}

fn report_words(r: &PtxasReport) -> [u32; 6] {
    [
        r.registers,
        r.stack_frame,
        r.spill_stores,
        r.spill_loads,
        r.smem,
        r.uses_lmem as u32,
    ]
}

fn encode(c: &Compiled) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    for w in report_words(&c.report) {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.extend_from_slice(&(c.cubin.len() as u64).to_le_bytes());
    out.extend_from_slice(&fnv1a(&[&c.cubin]).to_le_bytes());
    out.extend_from_slice(&c.cubin);
    out
}

/// The cached kernel at `path`, or `None` when the file is absent, short, foreign or corrupt.
fn read(path: &Path) -> Option<Compiled> {
    let bytes = std::fs::read(path).ok()?;
    let rest = bytes.strip_prefix(MAGIC.as_slice())?;
    let word = |i: usize| -> Option<u32> {
        Some(u32::from_le_bytes(
            rest.get(4 * i..4 * i + 4)?.try_into().ok()?,
        ))
    };
    let w: Vec<u32> = (0..6).map(word).collect::<Option<_>>()?;
    let len = u64::from_le_bytes(rest.get(24..32)?.try_into().ok()?) as usize;
    let hash = u64::from_le_bytes(rest.get(32..40)?.try_into().ok()?);
    let cubin = rest.get(40..)?;
    if cubin.len() != len || fnv1a(&[cubin]) != hash || len == 0 {
        return None;
    }
    Some(Compiled {
        cubin: cubin.to_vec(),
        report: PtxasReport {
            registers: w[0],
            stack_frame: w[1],
            spill_stores: w[2],
            spill_loads: w[3],
            smem: w[4],
            uses_lmem: w[5] != 0,
        },
        log: String::new(),
    })
}

/// Writes `c` to `path` through a temporary file of this write alone (process id and a counter of the
/// process's writes: threads compiling different kernels at once must not rename each other's files,
/// which left one kernel's CUBIN under another's name, "named symbol not found" on the next load).
fn write(path: &Path, c: &Compiled) -> std::io::Result<()> {
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let n = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(format!(".{}.{n}.tmp", std::process::id()));
    std::fs::write(&tmp, encode(c))?;
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Compiled {
        Compiled {
            cubin: (0..200u8).collect(),
            report: PtxasReport {
                registers: 40,
                smem: 1024,
                ..PtxasReport::default()
            },
            log: String::new(),
        }
    }

    #[test]
    fn round_trip_and_corrupt_files_are_not_trusted() {
        let dir = std::env::temp_dir().join(format!("cute-cache-test-{}", std::process::id()));
        let path = dir.join("k.cubin");
        write(&path, &sample()).unwrap();
        let back = read(&path).unwrap();
        assert_eq!((back.cubin, back.report), (sample().cubin, sample().report));
        // flip one byte of the CUBIN: the hash no longer matches
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(read(&path).is_none());
        // truncated, foreign, empty
        std::fs::write(&path, &bytes[..30]).unwrap();
        assert!(read(&path).is_none());
        std::fs::write(&path, b"not a cubin at all, just some text").unwrap();
        assert!(read(&path).is_none());
        std::fs::write(&path, b"").unwrap();
        assert!(read(&path).is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Threads writing different kernels at once: each file holds its own kernel (the run16 suite on 16
    /// threads found one kernel's CUBIN under another's name when the temporary file was per process).
    #[test]
    fn concurrent_writes_keep_each_kernel_in_its_file() {
        let dir = std::env::temp_dir().join(format!("cute-cache-race-{}", std::process::id()));
        let kernel = |t: u8| Compiled {
            cubin: vec![t; 4096 + t as usize],
            ..sample()
        };
        std::thread::scope(|s| {
            for t in 0..8u8 {
                let dir = &dir;
                s.spawn(move || {
                    for _ in 0..50 {
                        write(&dir.join(format!("{t}.cubin")), &kernel(t)).unwrap();
                    }
                });
            }
        });
        for t in 0..8u8 {
            let back = read(&dir.join(format!("{t}.cubin"))).unwrap();
            assert_eq!(back.cubin, kernel(t).cubin, "kernel {t}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
