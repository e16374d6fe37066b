//! The cuBLASLt baseline (what `torch.matmul` and `torch._scaled_mm` use): the "TN" GEMM `D (M,N) row-major
//! = A (M,K) row-major · B (K,N) column-major`, f16/bf16 in with the output in the input type, or FP8 in
//! (e4m3/e5m2, per-tensor scales as device scalars) with a bf16/f16 output; f32 compute, 32 MiB workspace; the
//! heuristic's top algorithms (up to 8), each runnable, so a benchmark reports the heuristic's first choice
//! and the best of the top 8.
//!
//! In cuBLAS's column-major terms this is `Dᵀ (N,M) = Bᵀ · Aᵀ`: the B buffer as a `K x N` matrix with
//! `transa = T`, the A buffer as `K x M` with `transb = N`, D as `N x M`, leading dimensions `ldb`, `lda`,
//! `ldd`.
//!
//! ```no_run
//! use cute_gpu::{DType, runtime::{Runtime, cublaslt::{LtGemm, LtTypes}}};
//! let rt = Runtime::new(0).unwrap();
//! let (a, b) = (rt.zeros::<u16>(1024 * 512).unwrap(), rt.zeros::<u16>(2048 * 512).unwrap());
//! let mut d = rt.zeros::<u16>(1024 * 2048).unwrap();
//! // D (1024,2048) row-major = A (1024,512) row-major · B (512,2048) column-major
//! let mut g = LtGemm::new(&rt, LtTypes::half(DType::F16), (1024, 2048, 512), (512, 512, 2048), None, 8).unwrap();
//! for i in 0..g.algos.len() { g.run(&rt, i, (a.slice(), b.slice(), d.slice_mut())).unwrap(); }
//! ```

use crate::dtype::DType;
use crate::error::{GpuError, Result};
use crate::runtime::Runtime;
use cudarc::cublaslt::{result as lt, sys};
use cudarc::driver::{CudaSlice, DevicePtr, DevicePtrMut};
use std::ffi::c_void;

/// Workspace the heuristic may use, as torch does.
///
/// ```
/// assert_eq!(cute_gpu::runtime::cublaslt::WORKSPACE_BYTES, 32 * 1024 * 1024);
/// ```
pub const WORKSPACE_BYTES: usize = 32 << 20;

fn lt_err(call: &str) -> impl FnOnce(cudarc::cublaslt::result::CublasError) -> GpuError + '_ {
    crate::error::driver(call)
}

/// One cuBLASLt problem with its descriptors, workspace and candidate algorithms.
///
/// ```no_run
/// use cute_gpu::{DType, runtime::{Runtime, cublaslt::{LtGemm, LtTypes}}};
/// let rt = Runtime::new(0).unwrap();
/// let (m, n, k) = (4096u64, 4096u64, 4096u64);
/// let mut g = LtGemm::new(&rt, LtTypes::half(DType::BF16), (m, n, k), (4096, 4096, 4096), None, 8).unwrap();
/// let (a, b) = (rt.zeros::<u16>(4096 * 4096).unwrap(), rt.zeros::<u16>(4096 * 4096).unwrap());
/// let mut d = rt.zeros::<u16>(4096 * 4096).unwrap();
/// let ms = rt.time_ms(2, 10, || g.run(&rt, 0, (a.slice(), b.slice(), d.slice_mut()))).unwrap();
/// println!("cuBLASLt's first choice: {:.0} TFLOP/s", 2.0 * 4096f64.powi(3) / ms / 1e9);
/// ```
pub struct LtGemm {
    handle: sys::cublasLtHandle_t,
    desc: sys::cublasLtMatmulDesc_t,
    layouts: [sys::cublasLtMatrixLayout_t; 3],
    workspace: CudaSlice<u8>,
    /// The heuristic's algorithms, best first.
    pub algos: Vec<sys::cublasLtMatmulAlgo_t>,
}

fn data_type(d: DType) -> sys::cudaDataType {
    match d {
        DType::F16 => sys::cudaDataType::CUDA_R_16F,
        DType::BF16 => sys::cudaDataType::CUDA_R_16BF,
        DType::F32 => sys::cudaDataType::CUDA_R_32F,
        DType::E4M3 => sys::cudaDataType::CUDA_R_8F_E4M3,
        DType::E5M2 => sys::cudaDataType::CUDA_R_8F_E5M2,
    }
}

/// The element types of a cuBLASLt problem: A and B in, D (and C) out.
///
/// ```
/// use cute_gpu::{DType, runtime::cublaslt::LtTypes};
/// let fp8 = LtTypes { a: DType::E4M3, b: DType::E5M2, d: DType::BF16 };
/// assert_ne!(fp8, LtTypes::half(DType::BF16));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LtTypes {
    /// A's type (A and B share it for 16-bit inputs; FP8 may mix e4m3 and e5m2).
    pub a: DType,
    /// B's type.
    pub b: DType,
    /// D's type.
    pub d: DType,
}

impl LtTypes {
    /// 16-bit inputs with the output in the input type.
    ///
    /// ```
    /// use cute_gpu::{DType, runtime::cublaslt::LtTypes};
    /// assert_eq!(LtTypes::half(DType::F16), LtTypes { a: DType::F16, b: DType::F16, d: DType::F16 });
    /// ```
    pub fn half(t: DType) -> Self {
        LtTypes { a: t, b: t, d: t }
    }

    fn check(&self) -> Result<()> {
        let ok = (self.a.is_half() && self.a == self.b && self.d == self.a)
            || (self.a.is_fp8() && self.b.is_fp8() && self.d.is_output());
        if ok {
            return Ok(());
        }
        Err(GpuError::Config {
            kernel: "cuBLASLt baseline",
            reason: format!(
                "types {}·{} -> {}: 16-bit inputs with the output in their type, or FP8 inputs",
                self.a.name(),
                self.b.name(),
                self.d.name()
            ),
        })
    }
}

/// FP8 options of a cuBLASLt problem.
///
/// ```no_run
/// use cute_gpu::{DType, runtime::{Runtime, cublaslt::{LtFp8, LtGemm, LtTypes}}};
/// let rt = Runtime::new(0).unwrap();
/// let (sa, sb) = (rt.upload(&[0.5f32]).unwrap(), rt.upload(&[2.0f32]).unwrap());
/// let fp8 = LtFp8 { scales: (rt.bind(&sa).ptr(), rt.bind(&sb).ptr()), fast_accum: false };
/// let types = LtTypes { a: DType::E4M3, b: DType::E4M3, d: DType::BF16 };
/// let g = LtGemm::new(&rt, types, (4096, 4096, 4096), (4096, 4096, 4096), Some(fp8), 8).unwrap();
/// assert!(!g.algos.is_empty());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LtFp8 {
    /// Device addresses of the f32 scales of A and B: `D = scale_a * scale_b * A·B` (as
    /// `torch._scaled_mm`).
    pub scales: (u64, u64),
    /// `CUBLASLT_MATMUL_DESC_FAST_ACCUM`: accumulate inside the tensor core over all of K (torch's
    /// `use_fast_accum=True`); off (torch's default), cuBLASLt promotes partial sums to f32.
    pub fast_accum: bool,
}

fn set_attr<T>(
    desc: sys::cublasLtMatmulDesc_t,
    attr: sys::cublasLtMatmulDescAttributes_t,
    value: &T,
) -> Result<()> {
    // SAFETY: desc is live; the attribute is read by value from `value` during the call.
    unsafe {
        lt::set_matmul_desc_attribute(
            desc,
            attr,
            value as *const T as *const c_void,
            std::mem::size_of::<T>(),
        )
    }
    .map_err(lt_err("cublasLtMatmulDescSetAttribute"))
}

impl LtGemm {
    /// The problem `(m, n, k)` with leading dimensions `(lda, ldb, ldd)`, and up to `count` algorithms.
    /// For FP8 inputs, `fp8` gives the scales and the accumulation mode.
    ///
    /// ```no_run
    /// use cute_gpu::{DType, runtime::{Runtime, cublaslt::{LtGemm, LtTypes}}};
    /// let rt = Runtime::new(0).unwrap();
    /// let (m, n, k) = (4096u64, 4096u64, 4096u64);
    /// let mut g = LtGemm::new(&rt, LtTypes::half(DType::BF16), (m, n, k), (4096, 4096, 4096), None, 8).unwrap();
    /// assert!((1..=8).contains(&g.algos.len()));
    /// // mixed 16-bit types are refused before cuBLASLt is asked
    /// let bad = LtTypes { a: DType::F16, b: DType::BF16, d: DType::F16 };
    /// assert!(LtGemm::new(&rt, bad, (m, n, k), (4096, 4096, 4096), None, 8).is_err());
    /// ```
    pub fn new(
        rt: &Runtime,
        types: LtTypes,
        (m, n, k): (u64, u64, u64),
        (lda, ldb, ldd): (i64, i64, i64),
        fp8: Option<LtFp8>,
        count: usize,
    ) -> Result<LtGemm> {
        types.check()?;
        let handle = lt::create_handle().map_err(lt_err("cublasLtCreate"))?;
        let desc = lt::create_matmul_desc(
            sys::cublasComputeType_t::CUBLAS_COMPUTE_32F,
            sys::cudaDataType::CUDA_R_32F,
        )
        .map_err(lt_err("cublasLtMatmulDescCreate"))?;
        use sys::cublasLtMatmulDescAttributes_t as At;
        let transa = cudarc::cublas::sys::cublasOperation_t::CUBLAS_OP_T;
        set_attr(desc, At::CUBLASLT_MATMUL_DESC_TRANSA, &transa)?;
        if let Some(f) = fp8 {
            // cuBLAS's A is our B (Dᵀ = Bᵀ·Aᵀ)
            set_attr(desc, At::CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &f.scales.1)?;
            set_attr(desc, At::CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &f.scales.0)?;
            set_attr(
                desc,
                At::CUBLASLT_MATMUL_DESC_FAST_ACCUM,
                &i8::from(f.fast_accum),
            )?;
        }
        let layout = |ty: DType, r, c, ld| {
            lt::create_matrix_layout(data_type(ty), r, c, ld)
                .map_err(lt_err("cublasLtMatrixLayoutCreate"))
        };
        let layouts = [
            layout(types.b, k, n, ldb)?,
            layout(types.a, k, m, lda)?,
            layout(types.d, n, m, ldd)?,
        ];
        let workspace = rt
            .stream()
            .alloc_zeros::<u8>(WORKSPACE_BYTES)
            .map_err(crate::error::driver("alloc workspace"))?;
        let mut g = LtGemm {
            handle,
            desc,
            layouts,
            workspace,
            algos: Vec::new(),
        };
        g.algos = g.heuristic(count)?;
        Ok(g)
    }

    /// The same GEMM over `batches` strided batches: A, B, D batch `l` start `l * strides` elements after
    /// batch 0 (`(a, b, d)`); the algorithms are asked for again (up to `count`).
    ///
    /// ```no_run
    /// use cute_gpu::{DType, runtime::{Runtime, cublaslt::{LtGemm, LtTypes}}};
    /// let rt = Runtime::new(0).unwrap();
    /// let g = LtGemm::new(&rt, LtTypes::half(DType::BF16), (1024, 1024, 1024), (1024, 1024, 1024), None, 8).unwrap();
    /// let g = g.strided_batch(32, (1 << 20, 1 << 20, 1 << 20), 8).unwrap();
    /// assert!(!g.algos.is_empty());
    /// ```
    pub fn strided_batch(
        mut self,
        batches: i32,
        (a, b, d): (i64, i64, i64),
        count: usize,
    ) -> Result<LtGemm> {
        use sys::cublasLtMatrixLayoutAttribute_t as La;
        // cuBLAS's A is our B (Dᵀ = Bᵀ·Aᵀ)
        for (layout, stride) in self.layouts.into_iter().zip([b, a, d]) {
            // SAFETY: the layouts are live; the values outlive the calls, sizes as documented.
            unsafe {
                lt::set_matrix_layout_attribute(
                    layout,
                    La::CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT,
                    &batches as *const i32 as *const c_void,
                    4,
                )
                .map_err(lt_err("cublasLtMatrixLayoutSetAttribute"))?;
                lt::set_matrix_layout_attribute(
                    layout,
                    La::CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                    &stride as *const i64 as *const c_void,
                    8,
                )
                .map_err(lt_err("cublasLtMatrixLayoutSetAttribute"))?;
            }
        }
        self.algos = self.heuristic(count)?;
        Ok(self)
    }

    fn heuristic(&self, count: usize) -> Result<Vec<sys::cublasLtMatmulAlgo_t>> {
        let pref = lt::create_matmul_pref().map_err(lt_err("cublasLtMatmulPreferenceCreate"))?;
        let bytes = WORKSPACE_BYTES as u64;
        let mut results: Vec<sys::cublasLtMatmulHeuristicResult_t> = Vec::with_capacity(count);
        let mut found = 0i32;
        // SAFETY: every descriptor is live; `results` has room for `count` entries.
        let status = unsafe {
            lt::set_matmul_pref_attribute(
                pref,
                sys::cublasLtMatmulPreferenceAttributes_t::CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                &bytes as *const u64 as *const c_void,
                8,
            )
            .map_err(lt_err("cublasLtMatmulPreferenceSetAttribute"))?;
            let [a, b, d] = self.layouts;
            let r = sys::cublasLtMatmulAlgoGetHeuristic(
                self.handle,
                self.desc,
                a,
                b,
                d,
                d,
                pref,
                count as i32,
                results.as_mut_ptr(),
                &mut found,
            );
            results.set_len(found.max(0) as usize);
            let _ = lt::destroy_matmul_pref(pref);
            r
        };
        if status != sys::cublasStatus_t::CUBLAS_STATUS_SUCCESS || results.is_empty() {
            return Err(GpuError::Driver {
                call: "cublasLtMatmulAlgoGetHeuristic".into(),
                detail: format!("{status:?}, {found} algorithms"),
            });
        }
        Ok(results.into_iter().map(|r| r.algo).collect())
    }

    /// `D = A·B` with algorithm `i` of [`LtGemm::algos`] on the runtime's stream.
    ///
    /// ```no_run
    /// use cute_gpu::{DType, runtime::{Runtime, cublaslt::{LtGemm, LtTypes}}};
    /// let rt = Runtime::new(0).unwrap();
    /// let (m, n, k) = (4096u64, 4096u64, 4096u64);
    /// let mut g = LtGemm::new(&rt, LtTypes::half(DType::BF16), (m, n, k), (4096, 4096, 4096), None, 8).unwrap();
    /// let (a, b) = (rt.zeros::<u16>(4096 * 4096).unwrap(), rt.zeros::<u16>(4096 * 4096).unwrap());
    /// let mut d = rt.zeros::<u16>(4096 * 4096).unwrap();
    /// g.run(&rt, 0, (a.slice(), b.slice(), d.slice_mut())).unwrap();
    /// assert!(g.run(&rt, g.algos.len(), (a.slice(), b.slice(), d.slice_mut())).is_err()); // no such algorithm
    /// ```
    pub fn run<T, U, O>(
        &mut self,
        rt: &Runtime,
        i: usize,
        (a, b, d): (&CudaSlice<T>, &CudaSlice<U>, &mut CudaSlice<O>),
    ) -> Result<()> {
        let s = rt.stream();
        let (alpha, beta) = (1.0f32, 0.0f32);
        let (pa, _ga) = a.device_ptr(s);
        let (pb, _gb) = b.device_ptr(s);
        let (pd, _gd) = d.device_ptr_mut(s);
        let (pw, _gw) = self.workspace.device_ptr_mut(s);
        let algo = self.algos.get(i).ok_or_else(|| GpuError::Config {
            kernel: "cuBLASLt baseline",
            reason: format!("algorithm {i} of {}", self.algos.len()),
        })?;
        let [la, lb, ld] = self.layouts;
        // SAFETY: the pointers come from live slices whose sizes the caller matched to the layouts;
        // alpha, beta and the algorithm outlive the (host-side) call.
        unsafe {
            lt::matmul(
                self.handle,
                self.desc,
                &alpha as *const f32 as *const c_void,
                &beta as *const f32 as *const c_void,
                pb as *const c_void,
                la,
                pa as *const c_void,
                lb,
                pd as *const c_void,
                ld,
                pd as *mut c_void,
                ld,
                algo,
                pw as *mut c_void,
                WORKSPACE_BYTES,
                s.cu_stream() as sys::cudaStream_t,
            )
        }
        .map_err(lt_err("cublasLtMatmul"))
    }
}

impl Drop for LtGemm {
    fn drop(&mut self) {
        // SAFETY: the descriptors were created by this value and are destroyed once.
        unsafe {
            for l in self.layouts {
                let _ = lt::destroy_matrix_layout(l);
            }
            let _ = lt::destroy_matmul_desc(self.desc);
            let _ = lt::destroy_handle(self.handle);
        }
    }
}
