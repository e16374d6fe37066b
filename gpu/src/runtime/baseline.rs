//! The cuBLAS baseline the GEMM benchmarks compare against, in one place.
//!
//! ```no_run
//! use cute_gpu::{DType, runtime::{Runtime, baseline::BaselineGemm, bench::Cublas}};
//! let rt = Runtime::new(0).unwrap();
//! let (a, b, d) = (rt.zeros::<u16>(64 * 64).unwrap(), rt.zeros::<u16>(64 * 64).unwrap(), rt.zeros::<u16>(64 * 64).unwrap());
//! let g = BaselineGemm { dtype: DType::F16, m: 64, n: 64, k: 64,
//!     a: (rt.bind(&a).ptr(), 64), b: (rt.bind(&b).ptr(), 64), d: (rt.bind(&d).ptr(), 64) };
//! // SAFETY: 64x64 buffers, alive until the sync
//! unsafe { g.run(Cublas::new(&rt).unwrap().handle()) }.unwrap();
//! rt.sync().unwrap();
//! ```

use crate::dtype::DType;
use crate::error::{GpuError, Result};
use std::ffi::c_void;

/// Operands of the baseline GEMM: `D (M,N) row-major = A (M,K) row-major x B (K,N) column-major`,
/// 16-bit inputs of `dtype`, f32 accumulation, D in the input type, `alpha = 1`, `beta = 0`.
///
/// ```no_run
/// use cute_gpu::{DType, runtime::{Runtime, baseline::BaselineGemm, bench::Cublas}};
/// let rt = Runtime::new(0).unwrap();
/// let (a, b, d) = (rt.zeros::<u16>(256 * 64).unwrap(), rt.zeros::<u16>(64 * 128).unwrap(), rt.zeros::<u16>(256 * 128).unwrap());
/// let g = BaselineGemm { dtype: DType::BF16, m: 256, n: 128, k: 64,
///     a: (rt.bind(&a).ptr(), 64), b: (rt.bind(&b).ptr(), 64), d: (rt.bind(&d).ptr(), 128) };
/// // SAFETY: the buffers hold M*lda, N*ldb and M*ldd elements and outlive the call (synced below)
/// unsafe { g.run(Cublas::new(&rt).unwrap().handle()) }.unwrap();
/// rt.sync().unwrap();
/// ```
#[derive(Clone, Copy, Debug)]
pub struct BaselineGemm {
    /// Input and output element type (f16 or bf16).
    pub dtype: DType,
    /// Rows of A and D.
    pub m: i64,
    /// Columns of B and D.
    pub n: i64,
    /// The reduction extent.
    pub k: i64,
    /// Device address of A and its leading dimension (row stride, elements).
    pub a: (u64, i64),
    /// Device address of B and its leading dimension (column stride, elements).
    pub b: (u64, i64),
    /// Device address of D and its leading dimension (row stride, elements).
    pub d: (u64, i64),
}

impl BaselineGemm {
    /// Run `cublasGemmEx` on `handle`'s stream. Row-major D (M,N) is column-major D^T (N,M) = B^T A^T,
    /// so cuBLAS's A operand is our B (column-major K x N, transposed) and its B operand is our A
    /// (row-major M x K = column-major K x M).
    ///
    /// # Safety
    /// `a`, `b` and `d` must be device allocations holding at least `M*lda`, `N*ldb` and `M*ldd`
    /// elements of the 16-bit type, alive until the stream has run the call.
    pub unsafe fn run(&self, handle: cudarc::cublas::sys::cublasHandle_t) -> Result<()> {
        use cudarc::cublas::sys::{
            cublasComputeType_t, cublasGemmAlgo_t, cublasOperation_t, cudaDataType,
        };
        let ty = match self.dtype {
            DType::F16 => cudaDataType::CUDA_R_16F,
            DType::BF16 => cudaDataType::CUDA_R_16BF,
            DType::F32 | DType::E4M3 | DType::E5M2 => {
                return Err(GpuError::Config {
                    kernel: "cuBLAS baseline",
                    reason: format!(
                        "the cuBLAS baseline takes f16 or bf16, not {}",
                        self.dtype.name()
                    ),
                });
            }
        };
        let (alpha, beta) = (1.0f32, 0.0f32);
        // SAFETY: the caller guarantees the buffers; alpha and beta outlive the (host-side) call.
        unsafe {
            cudarc::cublas::result::gemm_ex(
                handle,
                cublasOperation_t::CUBLAS_OP_T,
                cublasOperation_t::CUBLAS_OP_N,
                self.n as i32,
                self.m as i32,
                self.k as i32,
                &alpha as *const f32 as *const c_void,
                self.b.0 as *const c_void,
                ty,
                self.b.1 as i32,
                self.a.0 as *const c_void,
                ty,
                self.a.1 as i32,
                &beta as *const f32 as *const c_void,
                self.d.0 as *mut c_void,
                ty,
                self.d.1 as i32,
                cublasComputeType_t::CUBLAS_COMPUTE_32F,
                cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
            )
        }
        .map_err(crate::error::driver("cublasGemmEx"))
    }
}
