//! NVRTC: generated source -> CUBIN for one architecture. Needs only libnvrtc (no driver, no GPU).
//!
//! ```
//! use cute_gpu::nvrtc::{compile, nvrtc_available};
//! let src = "extern \"C\" __global__ void twice(float* x) { x[threadIdx.x] *= 2.f; }";
//! if nvrtc_available() {
//!     let c = compile(src, "twice", "sm_80").unwrap();
//!     assert!(c.cubin.starts_with(b"\x7fELF")); // a CUBIN is an ELF image
//! }
//! ```

use crate::error::{GpuError, Result, driver};
use cudarc::nvrtc::{result as nv, sys};
use std::ffi::CString;

/// What ptxas reported about one kernel (from `--ptxas-options=--verbose`).
///
/// ```
/// use cute_gpu::nvrtc::{parse_ptxas, PtxasReport};
/// let r = parse_ptxas("ptxas info    : Used 96 registers, 16384 bytes smem, 400 bytes cmem[0]");
/// assert_eq!(r, PtxasReport { registers: 96, smem: 16384, ..PtxasReport::default() });
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PtxasReport {
    /// Registers per thread.
    pub registers: u32,
    /// Stack frame bytes.
    pub stack_frame: u32,
    /// Spill store bytes.
    pub spill_stores: u32,
    /// Spill load bytes.
    pub spill_loads: u32,
    /// Static shared memory bytes.
    pub smem: u32,
    /// Whether the report mentions local memory (`lmem`).
    pub uses_lmem: bool,
}

impl PtxasReport {
    /// True when nothing spills and no local memory or stack is used.
    ///
    /// ```
    /// use cute_gpu::nvrtc::parse_ptxas;
    /// let log = "ptxas info    : Function properties for k\n    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads";
    /// assert!(!parse_ptxas(log).is_clean());
    /// assert!(parse_ptxas("ptxas info    : Used 32 registers").is_clean());
    /// ```
    pub fn is_clean(&self) -> bool {
        self.spill_stores == 0 && self.spill_loads == 0 && self.stack_frame == 0 && !self.uses_lmem
    }
}

fn number_before(line: &str, key: &str) -> Option<u32> {
    let pos = line.find(key)?;
    line[..pos]
        .split(|c: char| !c.is_ascii_digit())
        .rfind(|s| !s.is_empty())?
        .parse()
        .ok()
}

/// Parses ptxas's verbose log.
///
/// ```
/// use cute_gpu::nvrtc::parse_ptxas;
/// let log = "ptxas info    : Compiling entry function 'k' for 'sm_80'
/// ptxas info    : Function properties for k
///     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
/// ptxas info    : Used 168 registers, 368 bytes cmem[0]";
/// let r = parse_ptxas(log);
/// assert_eq!((r.registers, r.smem, r.spill_stores), (168, 0, 0));
/// ```
pub fn parse_ptxas(log: &str) -> PtxasReport {
    let mut r = PtxasReport::default();
    for line in log.lines() {
        if let Some(v) = number_before(line, " registers") {
            r.registers = v;
        }
        if let Some(v) = number_before(line, " bytes smem") {
            r.smem = v;
        }
        if let Some(v) = number_before(line, " bytes stack frame") {
            r.stack_frame = v;
        }
        if let Some(v) = number_before(line, " bytes spill stores") {
            r.spill_stores = v;
        }
        if let Some(v) = number_before(line, " bytes spill loads") {
            r.spill_loads = v;
        }
        if let Some(v) = number_before(line, " bytes lmem") {
            r.uses_lmem |= v > 0;
        }
    }
    r
}

/// A compiled kernel.
///
/// ```
/// use cute_gpu::nvrtc::{compile, nvrtc_available};
/// let src = r#"extern "C" __global__ void k(float* x) { x[threadIdx.x] = 1.0f; }"#;
/// if nvrtc_available() {
///     let c = compile(src, "k", "sm_80").unwrap();
///     assert!(!c.cubin.is_empty() && c.report.is_clean());
/// }
/// ```
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The CUBIN.
    pub cubin: Vec<u8>,
    /// NVRTC's program log (includes the ptxas report).
    pub log: String,
    /// The parsed ptxas report.
    pub report: PtxasReport,
}

/// Whether libnvrtc can be loaded (cudarc's dynamic loading would panic otherwise).
///
/// ```
/// use cute_gpu::nvrtc::{nvrtc_available, nvrtc_version_string};
/// if !nvrtc_available() {
///     assert_eq!(nvrtc_version_string(), "none");
/// }
/// ```
pub fn nvrtc_available() -> bool {
    crate::libs::present(&["nvrtc"])
}

/// NVRTC's version as `major.minor` (`"none"` when libnvrtc cannot be loaded): part of the on-disk
/// cache's key, so a CUBIN from another compiler version is not reused.
///
/// ```
/// use cute_gpu::nvrtc::{nvrtc_available, nvrtc_version_string};
/// let v = nvrtc_version_string();
/// assert!(if nvrtc_available() { v.contains('.') || v == "unknown" } else { v == "none" });
/// ```
pub fn nvrtc_version_string() -> String {
    if !nvrtc_available() {
        return "none".into();
    }
    let (mut major, mut minor) = (0i32, 0i32);
    // SAFETY: libnvrtc is loaded (checked above); the out-parameters are valid locals.
    let r = unsafe { sys::nvrtcVersion(&mut major, &mut minor) };
    if r == sys::nvrtcResult::NVRTC_SUCCESS {
        format!("{major}.{minor}")
    } else {
        "unknown".into()
    }
}

/// Compiles `source` to a CUBIN for `arch` (`"sm_80"`, `"sm_90a"`).
///
/// ```
/// use cute_gpu::{GpuError, nvrtc::{compile, nvrtc_available}};
/// let src = r#"extern "C" __global__ void k(float* x) { x[threadIdx.x] *= 2.0f; }"#;
/// match compile(src, "k", "sm_80") {
///     Ok(c) => assert!(nvrtc_available() && !c.cubin.is_empty()),
///     Err(e) => assert!(!nvrtc_available() && matches!(e, GpuError::LibraryMissing(_))),
/// }
/// ```
pub fn compile(source: &str, name: &str, arch: &str) -> Result<Compiled> {
    if !nvrtc_available() {
        return Err(GpuError::LibraryMissing("libnvrtc"));
    }
    let src = CString::new(source).map_err(driver("CString::new(source)"))?;
    let fname = CString::new(format!("{name}.cu")).map_err(driver("CString::new(kernel name)"))?;
    let prog = nv::create_program(&src, Some(&fname)).map_err(driver("nvrtcCreateProgram"))?;
    let opts = [
        format!("--gpu-architecture={arch}"),
        "--ptxas-options=--verbose".to_string(),
        "--std=c++17".to_string(),
    ];
    let compiled = unsafe { nv::compile_program(prog, &opts) };
    let log = unsafe { nv::get_program_log(prog) }
        .map(|v| {
            let bytes: Vec<u8> = v
                .iter()
                .take_while(|&&c| c != 0)
                .map(|&c| c as u8)
                .collect();
            String::from_utf8_lossy(&bytes).into_owned()
        })
        .unwrap_or_default();
    let out = match compiled {
        Err(_) => Err(GpuError::Compile {
            kernel: name.to_string(),
            log: log.clone(),
        }),
        Ok(()) => unsafe {
            let mut size = 0usize;
            let r = sys::nvrtcGetCUBINSize(prog, &mut size);
            if r != sys::nvrtcResult::NVRTC_SUCCESS || size == 0 {
                Err(GpuError::Driver {
                    call: "nvrtcGetCUBINSize".into(),
                    detail: format!("{r:?} (is {arch} a real architecture?)"),
                })
            } else {
                let mut buf = vec![0u8; size];
                let r = sys::nvrtcGetCUBIN(prog, buf.as_mut_ptr() as *mut _);
                if r != sys::nvrtcResult::NVRTC_SUCCESS {
                    Err(driver("nvrtcGetCUBIN")(r))
                } else {
                    Ok(Compiled {
                        cubin: buf,
                        report: parse_ptxas(&log),
                        log,
                    })
                }
            }
        },
    };
    let _ = unsafe { nv::destroy_program(prog) };
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn parses_a_ptxas_report() {
        let log = "ptxas info    : Compiling entry function 'k' for 'sm_90a'\nptxas info    : Function properties for k\n    8 bytes stack frame, 4 bytes spill stores, 12 bytes spill loads\nptxas info    : Used 168 registers, used 1 barriers, 16384 bytes smem, 400 bytes cmem[0]\n";
        let r = parse_ptxas(log);
        assert_eq!(
            r,
            PtxasReport {
                registers: 168,
                stack_frame: 8,
                spill_stores: 4,
                spill_loads: 12,
                smem: 16384,
                uses_lmem: false
            }
        );
        assert!(!r.is_clean());
    }
}
