//! Our GEMM on [candle](https://github.com/huggingface/candle)'s CUDA tensors (feature `candle`).
//!
//! [`matmul`] (a function) and [`Matmul`] (a [`CustomOp2`], for `a.apply_op2(&b, Matmul::new())`)
//! multiply candle tensors with `cute::gpu::matmul`'s kernels (SM90 wgmma + TMA on Hopper, `mma.sync`
//! elsewhere), on candle's own stream, returning candle tensors and candle's error type:
//!
//! - element types: `bf16` or `f16` inputs (both the same), the output of the input's type or `f32`
//!   ([`Matmul::out_dtype`]);
//! - shapes: `(M,K) x (K,N) -> (M,N)`, and batched `(L,M,K) x (L,K,N) -> (L,M,N)`;
//! - any strides: each input's candle layout (its dims, strides and start offset) becomes the CuTe
//!   layout of the operand, so `b.t()?` (a transposed view), a narrowed slice or a batch broadcast
//!   with stride 0 is read where it lies, with no copy. The output is a new contiguous row-major tensor;
//! - CUDA tensors only: on the CPU the op fails with an error saying so (it does not fall back to
//!   candle's own matmul, so a CPU tensor never silently takes another path; use `Tensor::matmul`
//!   there);
//! - backward: [`Matmul`]'s gradients are two more of our GEMMs (`dA = dC·Bᵀ`, `dB = Aᵀ·dC`, on
//!   transposed views).
//!
//! Errors: candle's [`candle_core::Error`]; ours ([`crate::gpu::GpuError`], shapes that do not agree,
//! unsupported types) are wrapped in it with the values named.
//!
//! The cudarc types are shared: candle 0.11 is built on cudarc 0.19, as `cute::gpu` is, so candle's
//! `CudaSlice<bf16>` and `CudaStream` are the ones our GEMM takes, and the launch respects cudarc's
//! event tracking on candle's buffers. One [`Gemm`] handle (its plan and kernel caches) is kept per
//! candle stream for the life of the process.
//!
//! ```no_run
//! use cute::candle::core::{DType, Device, Tensor};
//! use cute::candle::{Matmul, matmul};
//! # fn main() -> cute::candle::core::Result<()> {
//! let dev = Device::new_cuda(0)?;
//! let a = Tensor::randn(0f32, 1.0, (256, 128), &dev)?.to_dtype(DType::BF16)?;
//! let b = Tensor::randn(0f32, 1.0, (512, 128), &dev)?.to_dtype(DType::BF16)?;
//! let c = matmul(&a, &b.t()?)?;                 // (256,128) x (128,512): B read transposed in place
//! assert_eq!(c.dims(), &[256, 512]);
//! let c32 = a.apply_op2(&b.t()?, Matmul::new().out_dtype(DType::F32))?; // f32 output
//! let diff = (c32 - a.matmul(&b.t()?)?.to_dtype(DType::F32)?)?.abs()?.max_all()?;
//! println!("max |cute - candle| = {diff}");
//! # Ok(())
//! # }
//! ```

use crate::gpu::matmul::{Element, Gemm, Matrix, MatrixMut};
use crate::{IntTuple, Layout};
use candle_core::backend::BackendStorage;
use candle_core::cuda::CudaDType;
use candle_core::{CpuStorage, CudaDevice, CudaStorage, CustomOp2, DType, Error, Result, Shape};
use candle_core::{Layout as CandleLayout, Tensor};
use std::sync::{Arc, Mutex};

/// candle-core itself (the version this module is built against), so a user needs no second
/// dependency line: `cute::candle::core::{Tensor, Device, DType}`.
pub use candle_core as core;

/// `a · b` with our GEMM: `(M,K) x (K,N) -> (M,N)` or `(L,M,K) x (L,K,N) -> (L,M,N)`, bf16 or f16,
/// the output of the inputs' type; any strides and start offsets (views are read in place). With
/// gradient tracking (the backward pass runs two more of our GEMMs).
///
/// Errors (candle's type): a tensor not on a CUDA device, different devices or types, a type other
/// than bf16/f16, ranks other than 2 or 3, inner or batch extents that do not agree (all named with
/// their values), and any error of the GEMM call (wrapped).
///
/// ```no_run
/// use cute::candle::core::{DType, Device, Tensor};
/// # fn main() -> cute::candle::core::Result<()> {
/// let dev = Device::new_cuda(0)?;
/// let a = Tensor::ones((8, 64, 32), DType::F16, &dev)?;
/// let b = Tensor::ones((8, 32, 16), DType::F16, &dev)?;
/// let c = cute::candle::matmul(&a, &b)?;        // batched: 8 products of 64x32 by 32x16
/// assert_eq!(c.dims(), &[8, 64, 16]);
/// assert_eq!(c.to_dtype(DType::F32)?.max_all()?.to_scalar::<f32>()?, 32.0);
/// # Ok(())
/// # }
/// ```
pub fn matmul(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    a.apply_op2(b, Matmul::new())
}

/// The GEMM as a candle [`CustomOp2`]: `a.apply_op2(&b, Matmul::new())` (see [`matmul`] and the
/// module doc for shapes, types and strides).
///
/// ```no_run
/// use cute::candle::Matmul;
/// use cute::candle::core::{DType, Device, Tensor};
/// # fn main() -> cute::candle::core::Result<()> {
/// let dev = Device::new_cuda(0)?;
/// let a = Tensor::ones((128, 64), DType::BF16, &dev)?;
/// let b = Tensor::ones((256, 64), DType::BF16, &dev)?;
/// // f32 output, B as a transposed view, the kernel chosen by timing (kept on disk):
/// let c = a.apply_op2(&b.t()?, Matmul::new().out_dtype(DType::F32).autotune())?;
/// assert_eq!(c.dtype(), DType::F32);
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Matmul {
    out: Option<DType>,
    autotune: bool,
}

impl Matmul {
    /// The product in the inputs' element type, the kernel chosen by the heuristic.
    pub fn new() -> Matmul {
        Matmul::default()
    }

    /// The output's element type: the inputs' (bf16 or f16, the default) or `DType::F32`; any other is
    /// an error when the op runs.
    pub fn out_dtype(mut self, dtype: DType) -> Matmul {
        self.out = Some(dtype);
        self
    }

    /// Choose each request class's kernel by timing the candidates on the first call (see
    /// `cute::gpu::matmul::Gemm::autotune`; the choice is kept on disk for later processes).
    pub fn autotune(mut self) -> Matmul {
        self.autotune = true;
        self
    }

    /// The GEMM on candle's storages: checks, output allocation, the launch on candle's stream.
    fn cuda_matmul(
        &self,
        s1: &CudaStorage,
        l1: &CandleLayout,
        s2: &CudaStorage,
        l2: &CandleLayout,
    ) -> Result<(CudaStorage, Shape)> {
        let (ti, to) = (s1.dtype(), self.out.unwrap_or(s1.dtype()));
        if s2.dtype() != ti {
            return Err(Error::msg(format!(
                "cute::candle::Matmul: a is {ti:?} and b is {:?}; both must be the same type",
                s2.dtype()
            )));
        }
        let supported = matches!(ti, DType::BF16 | DType::F16) && (to == ti || to == DType::F32);
        if !supported {
            return Err(Error::msg(format!(
                "cute::candle::Matmul: inputs {ti:?} with output {to:?} are not supported \
                 (inputs bf16 or f16; the output the inputs' type or f32)"
            )));
        }
        let p = Problem::new(l1, l2)?;
        let dev = s1.device();
        let gemm = gemm_for(dev, self.autotune)?;
        match (ti, to) {
            (DType::BF16, DType::BF16) => p.run::<half::bf16, half::bf16>(&gemm, s1, s2, dev),
            (DType::BF16, _) => p.run::<half::bf16, f32>(&gemm, s1, s2, dev),
            (_, DType::F32) => p.run::<half::f16, f32>(&gemm, s1, s2, dev),
            _ => p.run::<half::f16, half::f16>(&gemm, s1, s2, dev),
        }
    }
}

impl CustomOp2 for Matmul {
    fn name(&self) -> &'static str {
        "cute-matmul"
    }

    fn cpu_fwd(
        &self,
        _: &CpuStorage,
        l1: &CandleLayout,
        _: &CpuStorage,
        l2: &CandleLayout,
    ) -> Result<(CpuStorage, Shape)> {
        Err(Error::msg(format!(
            "cute::candle::Matmul runs on CUDA tensors; a {:?} and b {:?} are on the CPU \
             (use Tensor::matmul there, or move them with to_device(&Device::new_cuda(0)?))",
            l1.dims(),
            l2.dims()
        )))
    }

    fn cuda_fwd(
        &self,
        s1: &CudaStorage,
        l1: &CandleLayout,
        s2: &CudaStorage,
        l2: &CandleLayout,
    ) -> Result<(CudaStorage, Shape)> {
        self.cuda_matmul(s1, l1, s2, l2)
    }

    fn bwd(
        &self,
        a: &Tensor,
        b: &Tensor,
        _res: &Tensor,
        grad: &Tensor,
    ) -> Result<(Option<Tensor>, Option<Tensor>)> {
        // dA = dC · Bᵀ, dB = Aᵀ · dC, in the inputs' type, on transposed views (no copies).
        let grad = grad.to_dtype(a.dtype())?;
        let op = Matmul {
            out: None,
            autotune: self.autotune,
        };
        let da = grad.apply_op2_no_bwd(&b.t()?, &op)?;
        let db = a.t()?.apply_op2_no_bwd(&grad, &op)?;
        Ok((Some(da), Some(db)))
    }
}

/// One operand as the GEMM sees it: `(rows, cols, batch)` extents, their strides and the start offset,
/// read from a candle layout of rank 2 (`(rows, cols)`) or 3 (`(batch, rows, cols)`).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Operand {
    extents: [usize; 3],
    strides: [usize; 3],
    offset: usize,
}

impl Operand {
    fn new(name: &str, l: &CandleLayout) -> Result<Operand> {
        let (d, s) = (l.dims(), l.stride());
        let (extents, strides) = match (d, s) {
            ([r, c], [sr, sc]) => ([*r, *c, 1], [*sr, *sc, 0]),
            ([b, r, c], [sb, sr, sc]) => ([*r, *c, *b], [*sr, *sc, *sb]),
            _ => {
                return Err(Error::msg(format!(
                    "cute::candle::Matmul: {name} has dims {d:?}; expected rank 2 (rows, cols) or 3 \
                     (batch, rows, cols)"
                )));
            }
        };
        Ok(Operand {
            extents,
            strides,
            offset: l.start_offset(),
        })
    }

    /// The CuTe layout `(rows, cols, batch):(strides)`, or `(rows, cols):(strides)` for a batch of 1
    /// (all modes dynamic).
    fn layout(&self) -> Result<Layout> {
        let modes = if self.extents[2] == 1 { 2 } else { 3 };
        let tuple = |v: [usize; 3]| {
            IntTuple::tuple(v[..modes].iter().map(|&x| IntTuple::d(x as i64)).collect())
        };
        Layout::new(tuple(self.extents), tuple(self.strides)).map_err(Error::wrap)
    }
}

/// A checked request: the operands, `(M, N, K, L)`, the output shape candle sees.
#[derive(Debug)]
struct Problem {
    a: Operand,
    b: Operand,
    mnkl: [usize; 4],
    shape: Shape,
}

impl Problem {
    /// The operands of `a · b`, their extents checked against each other (the error names both shapes).
    fn new(la: &CandleLayout, lb: &CandleLayout) -> Result<Problem> {
        let (a, b) = (Operand::new("a", la)?, Operand::new("b", lb)?);
        let ([m, k, l], [k2, n, l2]) = (a.extents, b.extents);
        let (da, db) = (la.dims(), lb.dims());
        if k != k2 || l != l2 || da.len() != db.len() {
            return Err(Error::ShapeMismatchBinaryOp {
                lhs: la.shape().clone(),
                rhs: lb.shape().clone(),
                op: "cute-matmul (a (..., M, K) with b (..., K, N), same batch)",
            }
            .bt());
        }
        let shape = if da.len() == 3 {
            Shape::from((l, m, n))
        } else {
            Shape::from((m, n))
        };
        Ok(Problem {
            a,
            b,
            mnkl: [m, n, k, l],
            shape,
        })
    }

    /// Allocates the output (row-major `(M,N,L):(N,1,M*N)`) and launches on `gemm`'s stream (candle's).
    fn run<T, O>(
        &self,
        gemm: &Gemm,
        s1: &CudaStorage,
        s2: &CudaStorage,
        dev: &CudaDevice,
    ) -> Result<(CudaStorage, Shape)>
    where
        T: Element + CudaDType,
        O: Element + CudaDType,
    {
        let [m, n, k, l] = self.mnkl;
        let len = m * n * l;
        let mut d = if k == 0 || len == 0 {
            dev.alloc_zeros::<O>(len)?
        } else {
            // SAFETY: with beta = 0 and K > 0 the GEMM writes every element of D before it is read.
            unsafe { dev.alloc::<O>(len)? }
        };
        if len > 0 && k > 0 {
            let d_layout = Operand {
                extents: [m, n, l],
                strides: [n, 1, m * n],
                offset: 0,
            }
            .layout()?;
            let a = Matrix::at(s1.as_cuda_slice::<T>()?, self.a.layout()?, self.a.offset);
            let b = Matrix::at(s2.as_cuda_slice::<T>()?, self.b.layout()?, self.b.offset);
            let mut dm = MatrixMut::new(&mut d, d_layout);
            gemm.run::<T, O>(&a, &b, None, &mut dm, 1.0, 0.0)
                .map_err(Error::wrap)?;
        }
        Ok((O::wrap_cuda_slice(d, dev.clone()), self.shape.clone()))
    }
}

/// The process's GEMM handles, one per (candle stream, autotune); the stream's `Arc` is kept so its
/// address is never reused by another stream while the entry lives.
type Handles = Vec<(Arc<crate::cudarc::driver::CudaStream>, bool, Arc<Gemm>)>;
static GEMMS: Mutex<Handles> = Mutex::new(Vec::new());

/// The GEMM handle on `dev`'s stream (made on first use).
fn gemm_for(dev: &CudaDevice, autotune: bool) -> Result<Arc<Gemm>> {
    let stream = dev.cuda_stream();
    let mut handles = GEMMS
        .lock()
        .map_err(|_| Error::msg("cute::candle: the GEMM handle cache's lock is poisoned"))?;
    if let Some((_, _, g)) = handles
        .iter()
        .find(|(s, t, _)| Arc::ptr_eq(s, &stream) && *t == autotune)
    {
        return Ok(g.clone());
    }
    let mut gemm = Gemm::new(&stream).map_err(Error::wrap)?;
    if autotune {
        gemm = gemm.autotune().map_err(Error::wrap)?;
    }
    let gemm = Arc::new(gemm);
    handles.push((stream, autotune, gemm.clone()));
    Ok(gemm)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(dims: &[usize], stride: &[usize], offset: usize) -> CandleLayout {
        CandleLayout::new(Shape::from(dims.to_vec()), stride.to_vec(), offset)
    }

    #[test]
    fn operands_map_candle_strides_and_offsets_to_cute_layouts() {
        // A contiguous (64,32), B = (16,32)ᵀ (a transposed view), a batched A narrowed at offset 96.
        let a = Operand::new("a", &layout(&[64, 32], &[32, 1], 0)).unwrap();
        assert_eq!(a.layout().unwrap().to_string(), "(64,32):(32,1)");
        let bt = Operand::new("b", &layout(&[32, 16], &[1, 32], 0)).unwrap();
        assert_eq!(bt.layout().unwrap().to_string(), "(32,16):(1,32)");
        let batched = Operand::new("a", &layout(&[4, 8, 32], &[512, 64, 1], 96)).unwrap();
        assert_eq!(batched.layout().unwrap().to_string(), "(8,32,4):(64,1,512)");
        assert_eq!(batched.offset, 96);
    }

    #[test]
    fn problem_shapes_and_errors() {
        let p = Problem::new(
            &layout(&[3, 64, 32], &[2048, 32, 1], 0),
            &layout(&[3, 32, 16], &[0, 16, 1], 0), // batch broadcast: stride 0
        )
        .unwrap();
        assert_eq!(p.mnkl, [64, 16, 32, 3]);
        assert_eq!(p.shape.dims(), &[3, 64, 16]);
        let e = Problem::new(
            &layout(&[64, 32], &[32, 1], 0),
            &layout(&[31, 16], &[16, 1], 0),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("[64, 32]") && e.contains("[31, 16]"), "{e}");
        let e = Operand::new("b", &layout(&[2, 2, 2, 2], &[8, 4, 2, 1], 0))
            .unwrap_err()
            .to_string();
        assert!(e.contains("b has dims [2, 2, 2, 2]"), "{e}");
        let e = Problem::new(
            &layout(&[2, 64, 32], &[2048, 32, 1], 0),
            &layout(&[32, 16], &[16, 1], 0),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("cute-matmul"), "{e}");
    }

    #[test]
    fn cpu_tensors_are_a_clear_error() {
        let a = Tensor::ones((4, 8), DType::F32, &candle_core::Device::Cpu).unwrap();
        let b = Tensor::ones((8, 2), DType::F32, &candle_core::Device::Cpu).unwrap();
        let e = matmul(&a, &b).unwrap_err().to_string();
        assert!(
            e.contains("runs on CUDA tensors") && e.contains("[4, 8]"),
            "{e}"
        );
    }
}
