//! The crate's error type.

use std::fmt;

/// Everything that can go wrong while generating, compiling or running a kernel.
#[derive(Debug)]
pub enum GpuError {
    /// A layout given to a generator does not fit what the generator supports; the message says why.
    Unsupported(String),
    /// An error from layout-core's algebra.
    Layout(layout_core::LayoutError),
    /// A library (libnvrtc, libcuda, libcublas) could not be loaded: CUDA is not installed here.
    LibraryMissing(&'static str),
    /// NVRTC rejected the generated source; the program log is attached.
    Compile {
        /// Kernel name.
        kernel: String,
        /// NVRTC's program log.
        log: String,
    },
    /// An error returned by the CUDA driver, NVRTC or cuBLAS.
    Cuda(String),
    /// A launch argument does not satisfy the kernel's assumptions (alignment, sizes, buffer lengths).
    Launch(String),
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuError::Unsupported(m) => write!(f, "unsupported: {m}"),
            GpuError::Layout(e) => write!(f, "layout error: {e}"),
            GpuError::LibraryMissing(l) => write!(
                f,
                "{l} cannot be loaded (CUDA is not installed or not on the library path)"
            ),
            GpuError::Compile { kernel, log } => {
                write!(f, "NVRTC failed to compile {kernel}:\n{log}")
            }
            GpuError::Cuda(m) => write!(f, "CUDA error: {m}"),
            GpuError::Launch(m) => write!(f, "bad launch: {m}"),
        }
    }
}

impl std::error::Error for GpuError {}

impl From<layout_core::LayoutError> for GpuError {
    fn from(e: layout_core::LayoutError) -> Self {
        GpuError::Layout(e)
    }
}

/// Result with [`GpuError`].
pub type Result<T> = std::result::Result<T, GpuError>;

pub(crate) fn unsupported<T>(msg: impl Into<String>) -> Result<T> {
    Err(GpuError::Unsupported(msg.into()))
}
