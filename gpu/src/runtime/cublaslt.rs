//! The cuBLASLt baseline (what `torch.matmul` uses): the "TN" GEMM `D (M,N) row-major = A (M,K) row-major
//! · B (K,N) column-major`, f16/bf16 in, f32 compute, output in the input type, 32 MiB workspace; the
//! heuristic's top algorithms (up to 8), each runnable, so a benchmark reports the heuristic's first choice
//! and the best of the top 8.
//!
//! In cuBLAS's column-major terms this is `Dᵀ (N,M) = Bᵀ · Aᵀ`: the B buffer as a `K x N` matrix with
//! `transa = T`, the A buffer as `K x M` with `transb = N`, D as `N x M`, leading dimensions `ldb`, `lda`,
//! `ldd`.

use crate::dtype::DType;
use crate::error::{GpuError, Result};
use crate::runtime::Runtime;
use cudarc::cublaslt::{result as lt, sys};
use cudarc::driver::{CudaSlice, DevicePtr, DevicePtrMut};
use std::ffi::c_void;

/// Workspace the heuristic may use, as torch does.
pub const WORKSPACE_BYTES: usize = 32 << 20;

fn lt_err(call: &str) -> impl FnOnce(cudarc::cublaslt::result::CublasError) -> GpuError + '_ {
    crate::error::driver(call)
}

/// One cuBLASLt problem with its descriptors, workspace and candidate algorithms.
pub struct LtGemm {
    handle: sys::cublasLtHandle_t,
    desc: sys::cublasLtMatmulDesc_t,
    layouts: [sys::cublasLtMatrixLayout_t; 3],
    workspace: CudaSlice<u8>,
    /// The heuristic's algorithms, best first.
    pub algos: Vec<sys::cublasLtMatmulAlgo_t>,
}

fn data_type(d: DType) -> Result<sys::cudaDataType> {
    match d {
        DType::F16 => Ok(sys::cudaDataType::CUDA_R_16F),
        DType::BF16 => Ok(sys::cudaDataType::CUDA_R_16BF),
        DType::F32 => Err(GpuError::Config {
            kernel: "cuBLASLt baseline",
            reason: "inputs must be f16 or bf16".into(),
        }),
    }
}

impl LtGemm {
    /// The problem `(m, n, k)` with leading dimensions `(lda, ldb, ldd)`, and up to `count` algorithms.
    pub fn new(
        rt: &Runtime,
        dtype: DType,
        (m, n, k): (u64, u64, u64),
        (lda, ldb, ldd): (i64, i64, i64),
        count: usize,
    ) -> Result<LtGemm> {
        let ty = data_type(dtype)?;
        let handle = lt::create_handle().map_err(lt_err("cublasLtCreate"))?;
        let desc = lt::create_matmul_desc(
            sys::cublasComputeType_t::CUBLAS_COMPUTE_32F,
            sys::cudaDataType::CUDA_R_32F,
        )
        .map_err(lt_err("cublasLtMatmulDescCreate"))?;
        let transa = cudarc::cublas::sys::cublasOperation_t::CUBLAS_OP_T;
        // SAFETY: desc is live; the attribute is a cublasOperation_t read by value.
        unsafe {
            lt::set_matmul_desc_attribute(
                desc,
                sys::cublasLtMatmulDescAttributes_t::CUBLASLT_MATMUL_DESC_TRANSA,
                &transa as *const _ as *const c_void,
                std::mem::size_of::<cudarc::cublas::sys::cublasOperation_t>(),
            )
        }
        .map_err(lt_err("cublasLtMatmulDescSetAttribute(TRANSA)"))?;
        let layout = |r, c, ld| {
            lt::create_matrix_layout(ty, r, c, ld).map_err(lt_err("cublasLtMatrixLayoutCreate"))
        };
        let layouts = [layout(k, n, ldb)?, layout(k, m, lda)?, layout(n, m, ldd)?];
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
    pub fn run<T>(
        &mut self,
        rt: &Runtime,
        i: usize,
        (a, b, d): (&CudaSlice<T>, &CudaSlice<T>, &mut CudaSlice<T>),
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
