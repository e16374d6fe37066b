//! The crate's error type: one variant per kind of failure, each carrying the values involved.
//!
//! ```
//! use cute_gpu::{kernels::attention_sm80::{generate_attention, AttentionConfig}, DType, GpuError};
//! let e = generate_attention(&AttentionConfig::new(DType::F32, 64, false, false)).unwrap_err();
//! assert!(matches!(e, GpuError::Config { kernel: "attention_sm80", .. }));
//! ```

use std::fmt;

/// Everything that can go wrong while generating, compiling or running a kernel.
///
/// ```
/// use cute_gpu::GpuError;
/// let e = GpuError::Misaligned { arg: "A".into(), address: 0x1002, alignment: 16 };
/// assert_eq!(e.to_string(), "bad launch: A at 0x1002 is not 16-byte aligned");
/// ```
#[derive(Debug)]
pub enum GpuError {
    /// A generator cannot produce a kernel for these parameters (tile sizes, types, layouts); the reason
    /// names the values.
    Config {
        /// The generator (`copy`, `transpose`, `gemm_sm80`, `gemm_sm90`, ...).
        kernel: &'static str,
        /// What is wrong, with the numbers.
        reason: String,
    },
    /// A value does not fit the integer type the kernel or the driver takes.
    Overflow {
        /// What the value is (an extent, a grid dimension, ...).
        what: String,
        /// The value.
        value: i64,
        /// The largest value allowed.
        limit: i64,
    },
    /// An error from layout-core's algebra.
    Layout(cute_layout_core::LayoutError),
    /// A library (libnvrtc, libcuda, libcublas) could not be loaded: CUDA is not installed here.
    LibraryMissing(&'static str),
    /// There is no GPU with this ordinal.
    NoDevice {
        /// The ordinal asked for.
        ordinal: usize,
        /// Devices present.
        count: usize,
    },
    /// NVRTC rejected the generated source; the program log is attached.
    Compile {
        /// Kernel name.
        kernel: String,
        /// NVRTC's program log.
        log: String,
    },
    /// A call into the CUDA driver, NVRTC or cuBLAS failed.
    Driver {
        /// The call (`cuLaunchKernel`, `nvrtcCreateProgram`, ...).
        call: String,
        /// What it returned.
        detail: String,
    },
    /// A launch was given the wrong number of buffers.
    ArgCount {
        /// Kernel name.
        kernel: String,
        /// Buffers the kernel takes.
        expected: usize,
        /// Buffers given.
        given: usize,
    },
    /// A buffer's address is not aligned as the kernel's vector accesses need.
    Misaligned {
        /// The argument.
        arg: String,
        /// Its device address.
        address: u64,
        /// The alignment in bytes the kernel needs.
        alignment: usize,
    },
    /// A kernel's result differs from its reference (benchmarks and GPU checks).
    CheckFailed(String),
    /// A buffer is smaller than the tensor the kernel reads or writes through it.
    BufferTooSmall {
        /// The argument.
        arg: String,
        /// The buffer's size in bytes.
        bytes: usize,
        /// Bytes the tensor spans.
        needed: usize,
    },
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuError::Config { kernel, reason } => write!(f, "unsupported {kernel}: {reason}"),
            GpuError::Overflow { what, value, limit } => {
                write!(f, "{what} = {value} exceeds {limit}")
            }
            GpuError::Layout(e) => write!(f, "layout error: {e}"),
            GpuError::LibraryMissing(l) => write!(
                f,
                "{l} cannot be loaded (CUDA is not installed or not on the library path)"
            ),
            GpuError::NoDevice { ordinal, count } => {
                write!(f, "no GPU {ordinal}: {count} device(s)")
            }
            GpuError::Compile { kernel, log } => {
                write!(f, "NVRTC failed to compile {kernel}:\n{log}")
            }
            GpuError::Driver { call, detail } => write!(f, "CUDA error: {call}: {detail}"),
            GpuError::ArgCount {
                kernel,
                expected,
                given,
            } => write!(
                f,
                "bad launch: {kernel} takes {expected} buffers, {given} given"
            ),
            GpuError::Misaligned {
                arg,
                address,
                alignment,
            } => write!(
                f,
                "bad launch: {arg} at {address:#x} is not {alignment}-byte aligned"
            ),
            GpuError::CheckFailed(m) => write!(f, "result check failed: {m}"),
            GpuError::BufferTooSmall { arg, bytes, needed } => write!(
                f,
                "bad launch: {arg} has {bytes} bytes but its tensor spans {needed}"
            ),
        }
    }
}

impl std::error::Error for GpuError {}

impl From<cute_layout_core::LayoutError> for GpuError {
    fn from(e: cute_layout_core::LayoutError) -> Self {
        GpuError::Layout(e)
    }
}

/// Result with [`GpuError`].
///
/// ```
/// use cute_gpu::{GpuError, Result, kernels::copy::{generate_copy, CopySpec}};
/// fn copy_name(l: &str) -> Result<String> {
///     let l: cute_layout_core::Layout = l.parse()?; // a LayoutError converts into GpuError::Layout
///     Ok(generate_copy(&CopySpec::new(l.clone(), l, 4))?.name)
/// }
/// assert!(copy_name("(_8,_8):(_1,_8)").is_ok());
/// assert!(matches!(copy_name("(_8,_8):(_1)"), Err(GpuError::Layout(_))));
/// ```
pub type Result<T> = std::result::Result<T, GpuError>;

/// `Err(GpuError::Config)` for generator `kernel`.
pub(crate) fn config<T>(kernel: &'static str, reason: impl Into<String>) -> Result<T> {
    Err(GpuError::Config {
        kernel,
        reason: reason.into(),
    })
}

/// A driver-call error mapper: `.map_err(driver("cuLaunchKernel"))`.
///
/// ```
/// use cute_gpu::{GpuError, error::driver};
/// let r: Result<(), &str> = Err("CUDA_ERROR_INVALID_VALUE");
/// let e = r.map_err(driver("cuLaunchKernel")).unwrap_err();
/// assert!(matches!(e, GpuError::Driver { ref call, .. } if call == "cuLaunchKernel"));
/// ```
pub fn driver<E: fmt::Debug>(call: &str) -> impl FnOnce(E) -> GpuError + '_ {
    move |e| GpuError::Driver {
        call: call.to_string(),
        detail: format!("{e:?}"),
    }
}

/// `value` as a `u32` (grid and block dimensions), or [`GpuError::Overflow`] naming `what`.
pub(crate) fn to_u32(what: &str, value: i64) -> Result<u32> {
    u32::try_from(value).map_err(|_| GpuError::Overflow {
        what: what.to_string(),
        value,
        limit: u32::MAX as i64,
    })
}

/// `value` as an `i32` (extent parameters), or [`GpuError::Overflow`] naming `what`.
pub(crate) fn to_i32(what: &str, value: i64) -> Result<i32> {
    i32::try_from(value).map_err(|_| GpuError::Overflow {
        what: what.to_string(),
        value,
        limit: i32::MAX as i64,
    })
}

/// `⌈a / b⌉` for `a >= 0`, `b > 0` (tile and block counts), overflow checked; otherwise
/// [`GpuError::Overflow`] naming `what` and the values.
pub(crate) fn ceil_div(what: &str, a: i64, b: i64) -> Result<i64> {
    if a < 0 || b <= 0 {
        return Err(GpuError::Overflow {
            what: format!("{what} (ceil({a} / {b}) needs a >= 0 and b > 0)"),
            value: a,
            limit: i64::MAX,
        });
    }
    Ok(a / b + i64::from(a % b != 0))
}

/// `a * b` with overflow checked, or [`GpuError::Overflow`] naming `what`.
pub(crate) fn mul(what: &str, a: i64, b: i64) -> Result<i64> {
    a.checked_mul(b).ok_or_else(|| GpuError::Overflow {
        what: format!("{what} ({a} x {b})"),
        value: i64::MAX,
        limit: i64::MAX,
    })
}
