//! Host side of the Hopper GEMM: tensor maps (`cuTensorMapEncodeTiled`) from the kernel's TMA boxes and
//! swizzle, module loading, launch with the maps as `__grid_constant__` parameters.

use super::{HopperKernel, Major};
use crate::error::{GpuError, Result};
use crate::gemm::DType;
use crate::nvrtc::{PtxasReport, compile};
use crate::runner::{RawBuffer, Runtime};
use cudarc::driver::{
    CudaFunction, CudaModule, DeviceRepr, LaunchConfig, PushKernelArg, sys as dsys,
};
use std::sync::Arc;

fn cuda<E: std::fmt::Debug>(what: &str) -> impl FnOnce(E) -> GpuError + '_ {
    move |e| GpuError::Cuda(format!("{what}: {e:?}"))
}

/// A `CUtensorMap` (128 bytes, 64-byte aligned), passed by value as a kernel parameter.
#[repr(C, align(64))]
#[derive(Clone, Copy, Debug)]
pub struct TensorMap(pub [u64; 16]);

// SAFETY: plain bytes, laid out as the kernel's `TmaDesc` parameter.
unsafe impl DeviceRepr for TensorMap {}

/// A 2-D tiled tensor map over a 16-bit tensor: `inner` contiguous elements per line, `outer` lines
/// `ld` elements apart; box `(box_inner, box_outer)`; swizzle span in bytes (0, 32, 64, 128);
/// out-of-bounds elements of a box read as zero.
#[allow(clippy::too_many_arguments)]
pub fn tensor_map_2d(
    ptr: u64,
    dtype: DType,
    inner: u64,
    outer: u64,
    ld: u64,
    box_inner: u32,
    box_outer: u32,
    swizzle_bytes: u32,
) -> Result<TensorMap> {
    use dsys::{
        CUtensorMapDataType as Dt, CUtensorMapFloatOOBfill as Oob, CUtensorMapInterleave as Il,
        CUtensorMapL2promotion as L2, CUtensorMapSwizzle as Sw,
    };
    let dt = match dtype {
        DType::F16 => Dt::CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
        DType::BF16 => Dt::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
        DType::F32 => Dt::CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
    };
    let esize = if dtype == DType::F32 { 4 } else { 2 };
    let sw = match swizzle_bytes {
        0 => Sw::CU_TENSOR_MAP_SWIZZLE_NONE,
        32 => Sw::CU_TENSOR_MAP_SWIZZLE_32B,
        64 => Sw::CU_TENSOR_MAP_SWIZZLE_64B,
        128 => Sw::CU_TENSOR_MAP_SWIZZLE_128B,
        b => return Err(GpuError::Unsupported(format!("swizzle of {b} bytes"))),
    };
    let dims = [inner, outer];
    let strides = [ld * esize];
    let boxd = [box_inner, box_outer];
    let estr = [1u32, 1u32];
    let mut map = std::mem::MaybeUninit::<dsys::CUtensorMap>::zeroed();
    let r = unsafe {
        dsys::cuTensorMapEncodeTiled(
            map.as_mut_ptr(),
            dt,
            2,
            ptr as *mut std::ffi::c_void,
            dims.as_ptr(),
            strides.as_ptr(),
            boxd.as_ptr(),
            estr.as_ptr(),
            Il::CU_TENSOR_MAP_INTERLEAVE_NONE,
            sw,
            L2::CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
            Oob::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
        )
    };
    if r != dsys::CUresult::CUDA_SUCCESS {
        return Err(GpuError::Cuda(format!(
            "cuTensorMapEncodeTiled({inner}x{outer}, ld {ld}, box {box_inner}x{box_outer}, swizzle {swizzle_bytes}): {r:?}"
        )));
    }
    let map = unsafe { map.assume_init() };
    Ok(TensorMap(map.opaque))
}

/// A loaded Hopper kernel.
pub struct LoadedHopper {
    _module: Arc<CudaModule>,
    function: CudaFunction,
    /// ptxas's report.
    pub report: PtxasReport,
    /// Registers per thread (driver).
    pub registers: i32,
    /// Local memory bytes per thread (driver).
    pub local_bytes: i32,
    /// NVRTC compile time in seconds.
    pub compile_s: f64,
}

/// Compiles (sm_90a) and loads `k`.
pub fn load(rt: &Runtime, k: &HopperKernel) -> Result<LoadedHopper> {
    let t0 = std::time::Instant::now();
    let compiled = compile(&k.kernel.source, &k.kernel.name, rt.arch())?;
    let compile_s = t0.elapsed().as_secs_f64();
    let module = rt
        .context()
        .load_module(cudarc::nvrtc::Ptx::from_binary(compiled.cubin))
        .map_err(cuda("cuModuleLoadData"))?;
    let function = module
        .load_function(&k.kernel.name)
        .map_err(cuda("cuModuleGetFunction"))?;
    function
        .set_attribute(
            dsys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            k.kernel.dynamic_smem_bytes as i32,
        )
        .map_err(cuda("cuFuncSetAttribute(max dynamic smem)"))?;
    let registers = function.num_regs().map_err(cuda("num_regs"))?;
    let local_bytes = function
        .local_size_bytes()
        .map_err(cuda("local_size_bytes"))?;
    Ok(LoadedHopper {
        _module: module,
        function,
        report: compiled.report,
        registers,
        local_bytes,
        compile_s,
    })
}

/// Tensor maps and scalars bound to buffers, ready to launch repeatedly.
pub struct Bound {
    tm_a: TensorMap,
    tm_b: TensorMap,
    tm_d: Option<TensorMap>,
    d: u64,
    m: i32,
    n: i32,
    k: i32,
    ldd: i64,
    grid: u32,
}

/// Number of SMs of the runtime's device.
pub fn sm_count(rt: &Runtime) -> Result<u32> {
    rt.context()
        .attribute(dsys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
        .map(|v| v as u32)
        .map_err(cuda("SM count"))
}

/// Builds the tensor maps of A (M,K) and B (K,N) (K-major or MN-major, as in the problem) over the buffers.
pub fn bind(
    rt: &Runtime,
    k: &HopperKernel,
    a: RawBuffer,
    b: RawBuffer,
    d: RawBuffer,
) -> Result<Bound> {
    let p = &k.problem;
    let osz = if k.output == DType::F32 { 4 } else { 2 };
    // (contiguous extent, lines): K-major (K, M or N), MN-major (M or N, K)
    let (a_in, a_out) = if p.a_major == Major::K {
        (p.k, p.m)
    } else {
        (p.m, p.k)
    };
    let (b_in, b_out) = if p.b_major == Major::K {
        (p.k, p.n)
    } else {
        (p.n, p.k)
    };
    if a.bytes() < (p.lda * (a_out - 1) + a_in) as usize * 2
        || b.bytes() < (p.ldb * (b_out - 1) + b_in) as usize * 2
        || d.bytes() < (p.ldd * (p.m - 1) + p.n) as usize * osz
    {
        return Err(GpuError::Launch(
            "a buffer is smaller than its tensor".into(),
        ));
    }
    let tm_a = tensor_map_2d(
        a.ptr(),
        k.input,
        a_in as u64,
        a_out as u64,
        p.lda as u64,
        k.box_a[0],
        k.box_a[1],
        k.swizzle_bytes,
    )?;
    let tm_b = tensor_map_2d(
        b.ptr(),
        k.input,
        b_in as u64,
        b_out as u64,
        p.ldb as u64,
        k.box_b[0],
        k.box_b[1],
        k.swizzle_bytes,
    )?;
    // D (M,N) row-major for the TMA-store epilogue: N contiguous, M rows ldd apart, no swizzle of the
    // global side; the smem box is 128-byte swizzled like the kernel's staging layout
    let tm_d = match k.box_d {
        Some(bx) => Some(tensor_map_2d(
            d.ptr(),
            k.output,
            p.n as u64,
            p.m as u64,
            p.ldd as u64,
            bx[0],
            bx[1],
            128,
        )?),
        None => None,
    };
    let tiles = k.kernel.grid.0.max(1);
    let grid = if k.config.persistent {
        let c = &k.config;
        let all = ((p.m + c.bm - 1) / c.bm) * ((p.n + c.bn - 1) / c.bn);
        (all as u32).min(sm_count(rt)?)
    } else {
        tiles
    };
    Ok(Bound {
        tm_a,
        tm_b,
        tm_d,
        d: d.ptr(),
        m: p.m as i32,
        n: p.n as i32,
        k: p.k as i32,
        ldd: p.ldd,
        grid,
    })
}

/// Launches (asynchronously on the runtime's stream).
pub fn launch(rt: &Runtime, k: &HopperKernel, l: &LoadedHopper, b: &Bound) -> Result<()> {
    let mut lb = rt.stream().launch_builder(&l.function);
    lb.arg(&b.tm_a).arg(&b.tm_b);
    if let Some(tm_d) = &b.tm_d {
        lb.arg(tm_d);
    }
    lb.arg(&b.d).arg(&b.m).arg(&b.n).arg(&b.k).arg(&b.ldd);
    let cfg = LaunchConfig {
        grid_dim: (b.grid, 1, 1),
        block_dim: k.kernel.block,
        shared_mem_bytes: k.kernel.dynamic_smem_bytes,
    };
    unsafe { lb.launch(cfg) }.map_err(cuda("cuLaunchKernel"))?;
    Ok(())
}
