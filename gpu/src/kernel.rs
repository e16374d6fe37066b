//! The kernel description every generator returns and the runtime launches: CUDA C source, launch shape,
//! and the parameter list (buffers, TMA tensor maps over them, scalars), described once.
//!
//! ```
//! use cute_gpu::kernels::copy::{generate_copy, CopySpec};
//! let l: cute_layout_core::Layout = "(64,64):(_1,64)".parse().unwrap();
//! let k = generate_copy(&CopySpec::new(l.clone(), l, 4)).unwrap();
//! assert_eq!(k.buffer_names().len(), 2); // source and destination
//! assert!(k.source.contains(&k.name) && k.block.0 > 0);
//! ```

use crate::dtype::DType;
use crate::error::Result;
use cute_layout_core::{Layout, cosize};

/// A TMA tensor map parameter: a 2-D (or up to 5-D, [`TensorMapArg::outer`]) tiled view of one of the kernel's buffers, encoded by the runtime
/// (`cuTensorMapEncodeTiled`) when the buffer is bound.
///
/// ```
/// use cute_gpu::{DType, TensorMapArg};
/// // a 4096x4096 row-major f16 A, loaded in 128x64 boxes into 128-byte swizzled shared memory
/// let m = TensorMapArg {
///     name: "tma_a".into(), buffer: "A".into(), dtype: DType::F16,
///     extents: [4096, 4096], ld: 4096, box_dims: [64, 128], swizzle_bytes: 128, outer: vec![],
/// };
/// assert_eq!(m.box_dims[0] as i64 * m.dtype.bytes(), 128); // one box row is one swizzle span
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct TensorMapArg {
    /// Parameter name in the source.
    pub name: String,
    /// The buffer it views.
    pub buffer: String,
    /// Element type.
    pub dtype: DType,
    /// Extents, innermost (contiguous) first.
    pub extents: [u64; 2],
    /// Elements between consecutive lines of the outer extent.
    pub ld: u64,
    /// The box (tile) one TMA instruction moves, innermost first.
    pub box_dims: [u32; 2],
    /// Swizzle span in bytes (0, 32, 64, 128) of the shared-memory side.
    pub swizzle_bytes: u32,
    /// Further dimensions past the first two, `(extent, stride in elements)` each, box extent 1 (a rank-3
    /// to rank-5 map: attention's `(D, S, H, B)` views). Empty for a 2-D map.
    pub outer: Vec<(u64, u64)>,
}

/// One kernel argument, in the order of the entry point's parameter list.
///
/// ```
/// use cute_gpu::{Arg, kernels::copy::{generate_copy, CopySpec}};
/// let l: cute_layout_core::Layout = "(_8,100):(_1,_8)".parse().unwrap(); // 100 columns, known at run time
/// let k = generate_copy(&CopySpec::new(l.clone(), l, 4)).unwrap();
/// assert!(matches!(&k.args[0], Arg::Ptr(n) if n == "src"));
/// assert!(k.args.iter().any(|a| matches!(a, Arg::I32(_, 100)))); // the dynamic extent
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// A device pointer; the name says which buffer (`src`, `dst`, `A`, ...).
    Ptr(String),
    /// A TMA tensor map over a buffer (a `__grid_constant__` parameter).
    TensorMap(TensorMapArg),
    /// A 32-bit signed integer (a dynamic extent); value taken from the layouts given to the generator.
    I32(String, i32),
    /// A 64-bit signed integer (a dynamic stride).
    I64(String, i64),
    /// A 32-bit float (alpha, beta).
    F32(String, f32),
}

/// A buffer the kernel reads or writes, and the bytes its tensor spans (checked before a launch).
///
/// ```
/// use cute_gpu::Buffer;
/// let b = Buffer::for_layout("A", &"(_128,_64):(_64,_1)".parse().unwrap(), 2).unwrap();
/// assert_eq!(b, Buffer { name: "A".into(), bytes: 128 * 64 * 2 });
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buffer {
    /// The buffer's name (the pointer or tensor-map arguments refer to it).
    pub name: String,
    /// Bytes the kernel may touch from the buffer's start.
    pub bytes: usize,
}

impl Buffer {
    /// The buffer `name` holding the tensor `layout` of `elem_bytes`-byte elements: `cosize * elem_bytes`.
    ///
    /// ```
    /// use cute_gpu::Buffer;
    /// // a column of a row-major 100x100 f32 matrix: cosize 99*100 + 1 elements
    /// let b = Buffer::for_layout("x", &"100:100".parse().unwrap(), 4).unwrap();
    /// assert_eq!(b.bytes, (99 * 100 + 1) * 4);
    /// ```
    pub fn for_layout(name: &str, layout: &Layout, elem_bytes: i64) -> Result<Buffer> {
        let span = cosize(layout)?.value.max(0);
        let bytes = span.checked_mul(elem_bytes).unwrap_or(i64::MAX);
        Ok(Buffer {
            name: name.to_string(),
            bytes: usize::try_from(bytes).unwrap_or(usize::MAX),
        })
    }
}

/// A generated kernel: self-contained CUDA C source, its entry point and its launch configuration.
///
/// ```
/// use cute_gpu::kernels::copy::{generate_copy, CopySpec};
/// let l: cute_layout_core::Layout = "(_64,_64):(_1,_64)".parse().unwrap();
/// let k = generate_copy(&CopySpec::new(l.clone(), l, 4)).unwrap();
/// assert!(k.source.contains(&k.name)); // the extern "C" entry point
/// assert_eq!(k.buffer_names(), ["src", "dst"]);
/// assert!(k.block.0 > 0 && k.grid.0 > 0);
/// ```
#[derive(Clone, Debug)]
pub struct Kernel {
    /// Name of the `extern "C"` entry point.
    pub name: String,
    /// The CUDA C source (no headers).
    pub source: String,
    /// Grid dimensions for the problem the kernel was generated for.
    pub grid: (u32, u32, u32),
    /// A persistent kernel loops over its tiles: the runtime launches at most one CTA per SM.
    pub persistent: bool,
    /// CTAs per thread-block cluster along x (1: no clusters; the kernel's `__cluster_dims__`): the grid
    /// is a multiple of it, and a persistent grid is capped at the clusters that fit at once.
    pub cluster: u32,
    /// Block dimensions.
    pub block: (u32, u32, u32),
    /// Dynamic shared memory in bytes.
    pub dynamic_smem_bytes: u32,
    /// Arguments, in order; buffers are bound by the caller at launch.
    pub args: Vec<Arg>,
    /// The buffers, in the order a launch binds them.
    pub buffers: Vec<Buffer>,
    /// Byte alignment every pointer argument must have.
    pub pointer_alignment: usize,
    /// The kernel waits for the grids before it in the stream (`griddepcontrol.wait`) before it touches
    /// global memory, and lets the next grid launch early (`griddepcontrol.launch_dependents`): on SM90
    /// the runtime launches it with programmatic stream serialization, so that its launch and set-up
    /// overlap the previous kernel's tail ([`crate::arch::sync::GRID_DEPENDENCY_WAIT`]).
    pub dependent_launch: bool,
}

impl Kernel {
    /// Names of the buffers a launch binds, in order.
    ///
    /// ```
    /// use cute_gpu::kernels::copy::{generate_copy, CopySpec};
    /// let l: cute_layout_core::Layout = "(_8,_8):(_1,_8)".parse().unwrap();
    /// let k = generate_copy(&CopySpec::new(l.clone(), l, 4)).unwrap();
    /// assert_eq!(k.buffer_names(), ["src", "dst"]);
    /// assert_eq!(k.buffers[0].bytes, 256);
    /// ```
    pub fn buffer_names(&self) -> Vec<&str> {
        self.buffers.iter().map(|b| b.name.as_str()).collect()
    }
}

/// Whether GPUs of `arch` (`sm_90a`, `sm_100a`, `sm_86`) run programmatic dependent launch (compute
/// capability 9.0 and later), so that a [`Kernel::dependent_launch`] kernel may be launched with it.
///
/// ```
/// use cute_gpu::kernel::supports_dependent_launch;
/// for arch in ["sm_90a", "sm_90", "sm_100a", "sm_120"] {
///     assert!(supports_dependent_launch(arch), "{arch}");
/// }
/// for arch in ["sm_89", "sm_86", "sm_80", "sm_", "gfx90a"] {
///     assert!(!supports_dependent_launch(arch), "{arch}");
/// }
/// ```
pub fn supports_dependent_launch(arch: &str) -> bool {
    let Some(version) = arch.strip_prefix("sm_") else {
        return false;
    };
    let digits: String = version.chars().take_while(char::is_ascii_digit).collect();
    digits.parse::<u32>().is_ok_and(|cc| cc >= 90)
}
