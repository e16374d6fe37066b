//! The opt-in autotuner's memory: which kernel won for a request class, persisted on disk so a second
//! process does not time the candidates again.
//!
//! One line per class, `key<TAB>plan id` ([`super::plan::Plan::id`]: the kernel name, `/splitN` added
//! for split-K), in `<cache dir>/autotune.tsv` (the directory of the CUBIN cache). The key names the
//! device, the types, the operands' layouts with dynamic extents shown as `#`, the fused op, whether
//! alpha/beta are trivial, and the shape class (each of M, N, K rounded up to a power of two). Lines that do not parse are ignored; a name that no longer matches a candidate is not trusted
//! (the candidates are timed again).
//!
//! ```
//! use cute_gpu::matmul::tune::TuneTable;
//! let dir = std::env::temp_dir().join(format!("cute-tune-doc-{}", std::process::id()));
//! let mut t = TuneTable::at(dir.join("autotune.tsv"));
//! t.record("H100|bf16|(#,#):(#,_1)|...", "cute_hgemm_bf16_bf16_128x256x64_c2_s4_g8_p_ts").unwrap();
//! let again = TuneTable::at(dir.join("autotune.tsv"));
//! assert_eq!(again.choice("H100|bf16|(#,#):(#,_1)|..."), Some("cute_hgemm_bf16_bf16_128x256x64_c2_s4_g8_p_ts"));
//! # let _ = std::fs::remove_dir_all(&dir);
//! ```

use super::plan::Request;
use crate::emit::{flat_modes, pattern};
use crate::error::Result;
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;

/// Rounds in which the autotuner times every alternative, keeping the fastest median:
/// `CUTE_AUTOTUNE_ROUNDS` (1 to 15), else 1. Alternatives within a few percent of each other swap
/// places from one sample to the next; interleaved rounds settle them.
///
/// ```
/// assert!((1..=15).contains(&cute_gpu::matmul::tune::tuner_rounds()));
/// ```
pub fn tuner_rounds() -> usize {
    std::env::var("CUTE_AUTOTUNE_ROUNDS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .map_or(1, |n| n.clamp(1, 15))
}

/// The autotuner's choices, loaded from and appended to one file.
///
/// ```
/// use cute_gpu::matmul::tune::TuneTable;
/// let dir = std::env::temp_dir().join(format!("cute-tune-doc-t-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// std::fs::write(dir.join("t.tsv"), "k1\tcute_a\nbroken line\nk2\tnot_a_kernel\n").unwrap();
/// let t = TuneTable::at(dir.join("t.tsv"));
/// assert_eq!((t.choice("k1"), t.choice("k2")), (Some("cute_a"), None)); // bad lines are ignored
/// # let _ = std::fs::remove_dir_all(&dir);
/// ```
#[derive(Debug)]
pub struct TuneTable {
    path: Option<PathBuf>,
    choices: HashMap<String, String>,
}

impl TuneTable {
    /// The table in the file `path` (absent or unreadable: empty).
    ///
    /// ```
    /// use cute_gpu::matmul::tune::TuneTable;
    /// let t = TuneTable::at(std::env::temp_dir().join("cute-tune-doc-absent/none.tsv"));
    /// assert_eq!(t.choice("anything"), None);
    /// ```
    pub fn at(path: PathBuf) -> TuneTable {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let choices = text
            .lines()
            .filter_map(|l| l.split_once('\t'))
            .filter(|(k, v)| {
                !k.is_empty() && v.starts_with("cute_") && !v.contains(char::is_whitespace)
            })
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        TuneTable {
            path: Some(path),
            choices,
        }
    }

    /// The table next to the CUBIN cache (see [`crate::cubin_cache`]), or an in-memory table when the
    /// cache is off.
    ///
    /// ```
    /// use cute_gpu::matmul::tune::TuneTable;
    /// // <cache dir>/autotune.tsv; in memory only with CUTE_CACHE_DIR=off
    /// let t = TuneTable::from_env();
    /// assert_eq!(t.choice("no such class"), None);
    /// ```
    pub fn from_env() -> TuneTable {
        match crate::cubin_cache::CubinCache::from_env().dir() {
            Some(dir) => TuneTable::at(dir.join("autotune.tsv")),
            None => TuneTable {
                path: None,
                choices: HashMap::new(),
            },
        }
    }

    /// The kernel chosen for `key`, if one was recorded.
    ///
    /// ```
    /// use cute_gpu::matmul::tune::TuneTable;
    /// let dir = std::env::temp_dir().join(format!("cute-tune-doc-c-{}", std::process::id()));
    /// let mut t = TuneTable::at(dir.join("autotune.tsv"));
    /// assert_eq!(t.choice("k"), None);
    /// t.record("k", "cute_gemm_a").unwrap();
    /// assert_eq!(t.choice("k"), Some("cute_gemm_a"));
    /// # let _ = std::fs::remove_dir_all(&dir);
    /// ```
    pub fn choice(&self, key: &str) -> Option<&str> {
        self.choices.get(key).map(String::as_str)
    }

    /// Records `kernel` as the choice for `key` (appended to the file; a later line wins).
    ///
    /// ```
    /// use cute_gpu::matmul::tune::TuneTable;
    /// let dir = std::env::temp_dir().join(format!("cute-tune-doc-r-{}", std::process::id()));
    /// let mut t = TuneTable::at(dir.join("autotune.tsv"));
    /// t.record("k", "cute_gemm_a").unwrap();
    /// t.record("k", "cute_gemm_b").unwrap();
    /// assert_eq!(TuneTable::at(dir.join("autotune.tsv")).choice("k"), Some("cute_gemm_b"));
    /// # let _ = std::fs::remove_dir_all(&dir);
    /// ```
    pub fn record(&mut self, key: &str, kernel: &str) -> Result<()> {
        self.choices.insert(key.to_string(), kernel.to_string());
        if let Some(path) = &self.path {
            if let Some(dir) = path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            let line = format!("{key}\t{kernel}\n");
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path);
            // a table that cannot be written is not an error: the choice still holds in memory
            let _ = file.and_then(|mut f| f.write_all(line.as_bytes()));
        }
        Ok(())
    }
}

/// The class of a request: device, types, layout patterns, op, scalars, and M/N/K rounded up to powers
/// of two.
///
/// ```
/// use cute_gpu::{DType, matmul::{plan::Request, tune::class_key}};
/// let l = |s: &str| s.parse::<cute_layout_core::Layout>().unwrap();
/// let (a, b, d) = (l("(500,300):(300,_1)"), l("(300,1000):(_1,300)"), l("(500,1000):(1000,_1)"));
/// let r = Request { a: &a, b: &b, c: None, d: &d, input: DType::BF16, output: DType::BF16, alpha: 1.0,
///     beta: 0.0, arch: "sm_90a", aligned: [true; 4], sm_count: 132, op: Default::default(),
///     decomposition: Default::default() };
/// let key = class_key("H100", &r);
/// assert!(key.starts_with("H100|bf16|bf16|") && key.ends_with("|512x1024x512")); // M, N, K to powers of two
/// ```
pub fn class_key(device: &str, r: &Request) -> String {
    let extent = |l: &cute_layout_core::Layout, i: usize| {
        flat_modes(l)
            .ok()
            .and_then(|m| m.get(i).map(|x| x.0.value))
            .unwrap_or(0)
    };
    let class = |x: i64| (x.max(1) as u64).next_power_of_two();
    let (m, k, n) = (extent(r.a, 0), extent(r.a, 1), extent(r.b, 1));
    format!(
        "{device}|{}|{}|{}|{}|{}|{:?}|{:?}|{}|{}|{}x{}x{}",
        r.input.name(),
        r.output.name(),
        pattern(r.a),
        pattern(r.b),
        pattern(r.d),
        r.op,
        r.aligned,
        r.alpha == 1.0,
        r.beta == 0.0,
        class(m),
        class(n),
        class(k)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_that_do_not_parse_are_ignored_and_later_lines_win() {
        let dir = std::env::temp_dir().join(format!("cute-tune-test-{}", std::process::id()));
        let path = dir.join("autotune.tsv");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            &path,
            "garbage without a tab\nk1\tcute_a\nk2\tnot a kernel name\n\tcute_b\nk1\tcute_c\n",
        )
        .unwrap();
        let t = TuneTable::at(path.clone());
        assert_eq!(t.choice("k1"), Some("cute_c"));
        assert_eq!(t.choice("k2"), None);
        assert_eq!(t.choice(""), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
