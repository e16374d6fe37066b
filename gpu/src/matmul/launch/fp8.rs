//! The FP8 GEMM call ([`Gemm::run_fp8`]): the request's checks and plan ([`crate::matmul::fp8`]), the
//! buffers' spans and the scales' lengths checked before the launch, plans cached per request.
//!
//! ```no_run
//! use cute_gpu::{fp8::E4M3, matmul::{Activation, Epilogue, Fp8Scales, Gemm, Matrix, MatrixMut}};
//! let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
//! let a = stream.clone_htod(&vec![E4M3::from_f32(1.0); 128 * 128]).unwrap();
//! let (s, mut d) = (stream.clone_htod(&[1.0f32]).unwrap(), stream.alloc_zeros::<f32>(128 * 128).unwrap());
//! let ep = Epilogue::<f32> { alpha: 1.0, beta: 0.0, bias: None, activation: Activation::None };
//! let (ar, bc) = (Matrix::new(&a, "(128,128):(128,1)".parse().unwrap()), Matrix::new(&a, "(128,128):(1,128)".parse().unwrap()));
//! let mut dm = MatrixMut::new(&mut d, "(128,128):(128,1)".parse().unwrap());
//! Gemm::new(&stream).unwrap().run_fp8(&ar, &bc, None, &mut dm, &Fp8Scales::PerTensor { a: &s, b: &s }, &ep).unwrap();
//! assert_eq!(stream.clone_dtoh(&d).unwrap()[0], 128.0);
//! ```

use super::{Element, Epilogue, Gemm, Matrix, MatrixMut};
use crate::dtype::DType;
use crate::error::{GpuError, Result};
use crate::fp8::{E4M3, E5M2};
use crate::kernel::Kernel;
use crate::matmul::fp8::{Fp8Request, plan_fp8};
use crate::matmul::plan::{Span, check_spans};
use crate::piece::epilogue_op::EpilogueOp;
use crate::piece::fp8_scaling::Scaling;
use crate::runtime::{LoadedKernel, RawBuffer};
use cudarc::driver::{CudaSlice, DevicePtr, DevicePtrMut, DeviceRepr};
use cute_layout_core::Layout;
use std::sync::Arc;

/// An FP8 element type of A and B: [`E4M3`] or [`E5M2`].
///
/// ```
/// use cute_gpu::{DType, fp8::{E4M3, E5M2}, matmul::Fp8Element};
/// assert_eq!((<E4M3 as Fp8Element>::DTYPE, <E5M2 as Fp8Element>::DTYPE), (DType::E4M3, DType::E5M2));
/// ```
pub trait Fp8Element: DeviceRepr {
    /// The kernel-side type.
    ///
    /// ```
    /// use cute_gpu::{DType, fp8::E5M2, matmul::Fp8Element};
    /// assert_eq!(<E5M2 as Fp8Element>::DTYPE, DType::E5M2);
    /// ```
    const DTYPE: DType;
}

impl Fp8Element for E4M3 {
    const DTYPE: DType = DType::E4M3;
}
impl Fp8Element for E5M2 {
    const DTYPE: DType = DType::E5M2;
}

/// The f32 scales of an FP8 GEMM: device scalars per tensor (as `torch._scaled_mm`), or DeepSeek-V3
/// blocks: A's `(M, ceil(K/128))` column-major, B's `(ceil(N/128), ceil(K/128))` row-major.
///
/// ```no_run
/// use cute_gpu::matmul::Fp8Scales;
/// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
/// let (m, n, k) = (1024usize, 512usize, 2048usize);
/// let a = stream.clone_htod(&vec![1.0f32; m * k.div_ceil(128)]).unwrap(); // (1024, 16) column-major
/// let b = stream.clone_htod(&vec![1.0f32; n.div_ceil(128) * k.div_ceil(128)]).unwrap(); // (4, 16) row-major
/// let scales = Fp8Scales::Block { a: &a, b: &b };
/// assert!(matches!(scales, Fp8Scales::Block { .. }));
/// ```
pub enum Fp8Scales<'a> {
    /// `D = scale_a[0] * scale_b[0] * A·B`.
    PerTensor {
        /// A's scale (one value).
        a: &'a CudaSlice<f32>,
        /// B's scale (one value).
        b: &'a CudaSlice<f32>,
    },
    /// A per 1x128 block, B per 128x128 block, promoted to f32 every 128 of K.
    Block {
        /// A's scales.
        a: &'a CudaSlice<f32>,
        /// B's scales.
        b: &'a CudaSlice<f32>,
    },
}

impl<'a> Fp8Scales<'a> {
    fn parts(&self) -> (Scaling, &'a CudaSlice<f32>, &'a CudaSlice<f32>) {
        match *self {
            Fp8Scales::PerTensor { a, b } => (Scaling::PerTensor, a, b),
            Fp8Scales::Block { a, b } => (Scaling::Block, a, b),
        }
    }
}

/// What an FP8 plan depends on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Fp8Key {
    layouts: [Layout; 3],
    c: Option<Layout>,
    types: [DType; 3],
    scaling: Scaling,
    scalars: (u32, u32),
    aligned: [bool; 4],
    op: EpilogueOp,
}

/// A planned FP8 request: the kernel, its loaded module and the last binding (reused when the same
/// buffers come again, so the tensor maps are not encoded again).
pub(super) struct Fp8Entry {
    kernel: Kernel,
    loaded: Arc<LoadedKernel>,
    last: std::sync::Mutex<super::LastBinding>,
}

impl Gemm {
    /// `D = act(alpha * s·(A·B) + beta * C + bias)` with FP8 A and B ([`E4M3`] / [`E5M2`], A row-major,
    /// B column-major, 16-byte rows) and the per-tensor or block `scales` `s`, f32 accumulation, on the
    /// handle's stream (Hopper only). Bad input (layouts, short buffers or scales, misaligned bases, D
    /// overlapping an input) is an error before any launch.
    ///
    /// ```no_run
    /// use cute_gpu::fp8::E4M3;
    /// use cute_gpu::matmul::{Activation, Epilogue, Fp8Scales, Gemm, Matrix, MatrixMut};
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let (m, n, k) = (256usize, 512usize, 1024usize);
    /// let a = stream.clone_htod(&vec![E4M3::from_f32(0.5); m * k]).unwrap();
    /// let b = stream.clone_htod(&vec![E4M3::from_f32(2.0); k * n]).unwrap();
    /// let (sa, sb) = (stream.clone_htod(&[0.25f32]).unwrap(), stream.clone_htod(&[1.0f32]).unwrap());
    /// let mut d = stream.alloc_zeros::<f32>(m * n).unwrap();
    /// let no_op = Epilogue::<f32> { alpha: 1.0, beta: 0.0, bias: None, activation: Activation::None };
    /// Gemm::new(&stream).unwrap().run_fp8(
    ///     &Matrix::new(&a, format!("({m},{k}):({k},1)").parse().unwrap()),   // row-major
    ///     &Matrix::new(&b, format!("({k},{n}):(1,{k})").parse().unwrap()),   // column-major
    ///     None,
    ///     &mut MatrixMut::new(&mut d, format!("({m},{n}):({n},1)").parse().unwrap()),
    ///     &Fp8Scales::PerTensor { a: &sa, b: &sb },
    ///     &no_op,
    /// ).unwrap();
    /// assert_eq!(stream.clone_dtoh(&d).unwrap()[0], 0.25 * 1024.0);
    /// ```
    pub fn run_fp8<A: Fp8Element, B: Fp8Element, O: Element>(
        &self,
        a: &Matrix<A>,
        b: &Matrix<B>,
        c: Option<&Matrix<O>>,
        d: &mut MatrixMut<O>,
        scales: &Fp8Scales,
        e: &Epilogue<O>,
    ) -> Result<()> {
        let stream = self.rt.stream().clone();
        let (scaling, sa, sb) = scales.parts();
        let (pa, _ga) = a.data.device_ptr(&stream);
        let (pb, _gb) = b.data.device_ptr(&stream);
        // coordinate 0 of each operand (a view from `Matrix::at` starts past the buffer's start)
        let ((pa, a_bytes), (pb, b_bytes)) = (a.start("A", pa)?, b.start("B", pb)?);
        let (psa, _gsa) = sa.device_ptr(&stream);
        let (psb, _gsb) = sb.device_ptr(&stream);
        let c_guard = c.map(|c| c.data.device_ptr(&stream));
        let bias_guard = e
            .bias
            .as_ref()
            .map(|b| (b.data.device_ptr(&stream), b.data.len()));
        let d_len = d.data.len();
        let (pd, _gd) = d.data.device_ptr_mut(&stream);
        let (pc, c_bytes) = match (c, c_guard.as_ref()) {
            (Some(c), Some((p, _))) => c.start("C", *p)?,
            _ => (pd, d_len * std::mem::size_of::<O>()),
        };
        let request = Fp8Request {
            a: &a.layout,
            b: &b.layout,
            c: c.map(|c| &c.layout),
            d: &d.layout,
            types: (A::DTYPE, B::DTYPE),
            output: O::DTYPE,
            scaling,
            alpha: e.alpha,
            beta: e.beta,
            arch: self.target_arch(),
            aligned: [pa, pb, pc, pd].map(|p| p % 16 == 0),
            sm_count: self.rt.sm_count(),
            op: e.op(),
        };
        let Some(entry) = self.fp8_entry(&request)? else {
            return Ok(());
        };
        let os = std::mem::size_of::<O>();
        let mut spans = vec![
            Span::new("A", pa, a_bytes, &a.layout, 1)?,
            Span::new("B", pb, b_bytes, &b.layout, 1)?,
        ];
        if let Some(c) = c {
            spans.push(Span::new("C", pc, c_bytes, &c.layout, os)?);
        }
        spans.push(Span::new("D", pd, d_len * os, &d.layout, os)?);
        check_spans(&spans)?;
        check_scale_lengths(&entry.kernel, sa.len(), sb.len())?;
        let mut workspace = self.stream_k_workspace(&entry.kernel)?;
        let ws = super::workspace_binding(workspace.as_deref_mut(), &stream);
        let raw = |name: &str| -> Result<RawBuffer> {
            let (p, n) = match name {
                "SK" => ws.as_ref().map_or((0, 0), |w| w.0),
                "A" => (pa, a_bytes),
                "B" => (pb, b_bytes),
                "C" => (pc, c_bytes),
                "D" => (pd, d_len * os),
                "scale_a" => (psa, sa.len() * 4),
                "scale_b" => (psb, sb.len() * 4),
                "bias" => bias_guard
                    .as_ref()
                    .map_or((0, 0), |((p, _), n)| (*p, n * os)),
                other => {
                    return Err(GpuError::Config {
                        kernel: "matmul (FP8)",
                        reason: format!("{}: unknown buffer {other}", entry.kernel.name),
                    });
                }
            };
            Ok(RawBuffer::new(p, n))
        };
        let buffers = entry
            .kernel
            .buffers
            .iter()
            .map(|b| raw(&b.name))
            .collect::<Result<Vec<_>>>()?;
        self.launch_bound(&entry.kernel, &entry.loaded, &entry.last, buffers)
    }

    /// The cached plan of `r`, planned and loaded on first use.
    fn fp8_entry(&self, r: &Fp8Request) -> Result<Option<Arc<Fp8Entry>>> {
        let key = Fp8Key {
            layouts: [r.a.clone(), r.b.clone(), r.d.clone()],
            c: r.c.cloned(),
            types: [r.types.0, r.types.1, r.output],
            scaling: r.scaling,
            scalars: (r.alpha.to_bits(), r.beta.to_bits()),
            aligned: r.aligned,
            op: r.op,
        };
        if let Some(e) = Self::lock(&self.fp8_plans)?.get(&key) {
            return Ok(Some(e.clone()));
        }
        let Some(kernel) = plan_fp8(r)? else {
            return Ok(None);
        };
        let loaded = self.rt.load(&kernel)?;
        let entry = Arc::new(Fp8Entry {
            kernel,
            loaded,
            last: std::sync::Mutex::new(None),
        });
        Self::lock(&self.fp8_plans)?.insert(key, entry.clone());
        Ok(Some(entry))
    }
}

/// The scale buffers hold at least what `kernel` reads of them (f32 values), or
/// [`GpuError::BufferTooSmall`] naming the buffer and both sizes.
fn check_scale_lengths(kernel: &Kernel, scale_a: usize, scale_b: usize) -> Result<()> {
    let bytes_of = |name: &str| {
        kernel
            .buffers
            .iter()
            .find(|b| b.name == name)
            .map_or(0, |b| b.bytes)
    };
    for (name, len) in [("scale_a", scale_a), ("scale_b", scale_b)] {
        if len * 4 < bytes_of(name) {
            return Err(GpuError::BufferTooSmall {
                arg: name.to_string(),
                bytes: len * 4,
                needed: bytes_of(name),
            });
        }
    }
    Ok(())
}
