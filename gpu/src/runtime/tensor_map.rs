//! TMA tensor maps: a kernel's [`TensorMapArg`] encoded over a bound buffer with
//! `cuTensorMapEncodeTiled`, passed by value as a `__grid_constant__` parameter.
//!
//! ```no_run
//! use cute_gpu::{DType, TensorMapArg, runtime::{Runtime, tensor_map::encode}};
//! let rt = Runtime::new(0).unwrap();
//! let a = rt.zeros::<u16>(4096 * 4096).unwrap();
//! let map = TensorMapArg { name: "tma_a".into(), buffer: "A".into(), dtype: DType::BF16,
//!     extents: [4096, 4096], ld: 4096, box_dims: [64, 128], swizzle_bytes: 128, outer: vec![] };
//! let m = encode(&map, rt.bind(&a).ptr()).unwrap(); // 128 bytes, passed by value to the kernel
//! assert_ne!(m.0, [0u64; 16]);
//! ```

use crate::dtype::DType;
use crate::error::{GpuError, Result};
use crate::kernel::TensorMapArg;
use cudarc::driver::{DeviceRepr, sys as dsys};

/// A `CUtensorMap` (128 bytes, 64-byte aligned), laid out as the kernel's `TmaDesc` parameter.
///
/// ```
/// use cute_gpu::runtime::tensor_map::TensorMap;
/// assert_eq!((std::mem::size_of::<TensorMap>(), std::mem::align_of::<TensorMap>()), (128, 64));
/// ```
#[repr(C, align(64))]
#[derive(Clone, Copy, Debug)]
pub struct TensorMap(pub [u64; 16]);

// SAFETY: plain bytes, laid out as the kernel's `TmaDesc` parameter.
unsafe impl DeviceRepr for TensorMap {}

/// Encodes `map` over the buffer at device address `ptr`: out-of-bounds elements of a box read as zero
/// and are not written.
///
/// ```
/// use cute_gpu::{DType, TensorMapArg, runtime::tensor_map::encode};
/// let mut map = TensorMapArg { name: "tma_a".into(), buffer: "A".into(), dtype: DType::BF16,
///     extents: [4096, 4096], ld: 4096, box_dims: [64, 128], swizzle_bytes: 16, outer: vec![] };
/// assert!(encode(&map, 0x7f00_0000_0000).is_err()); // 16-byte swizzle: no such mode (checked first)
/// map.swizzle_bytes = 128;
/// if cute_gpu::runtime::driver_available() && cute_gpu::runtime::Runtime::new(0).is_ok() {
///     assert!(encode(&map, 0x7f00_0000_0000).is_ok()); // encoding reads no memory
/// }
/// ```
pub fn encode(map: &TensorMapArg, ptr: u64) -> Result<TensorMap> {
    use dsys::{
        CUtensorMapDataType as Dt, CUtensorMapFloatOOBfill as Oob, CUtensorMapInterleave as Il,
        CUtensorMapL2promotion as L2, CUtensorMapSwizzle as Sw,
    };
    let dt = match map.dtype {
        DType::F16 => Dt::CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
        DType::BF16 => Dt::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
        DType::F32 => Dt::CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
        // FP8 payloads are moved as bytes
        DType::E4M3 | DType::E5M2 => Dt::CU_TENSOR_MAP_DATA_TYPE_UINT8,
    };
    let sw = match map.swizzle_bytes {
        0 => Sw::CU_TENSOR_MAP_SWIZZLE_NONE,
        32 => Sw::CU_TENSOR_MAP_SWIZZLE_32B,
        64 => Sw::CU_TENSOR_MAP_SWIZZLE_64B,
        128 => Sw::CU_TENSOR_MAP_SWIZZLE_128B,
        b => {
            return Err(GpuError::Config {
                kernel: "tensor map",
                reason: format!("{}: swizzle of {b} bytes (0, 32, 64 or 128)", map.name),
            });
        }
    };
    let es = map.dtype.bytes() as u64;
    let rank = 2 + map.outer.len();
    if rank > 5 {
        return Err(GpuError::Config {
            kernel: "tensor map",
            reason: format!("{}: rank {rank} (at most 5)", map.name),
        });
    }
    let extents: Vec<u64> = map
        .extents
        .iter()
        .copied()
        .chain(map.outer.iter().map(|o| o.0))
        .collect();
    let strides: Vec<u64> = std::iter::once(map.ld * es)
        .chain(map.outer.iter().map(|o| o.1 * es))
        .collect();
    let boxes: Vec<u32> = map
        .box_dims
        .iter()
        .copied()
        .chain(map.outer.iter().map(|_| 1))
        .collect();
    let estr = [1u32; 5];
    let mut out = std::mem::MaybeUninit::<dsys::CUtensorMap>::zeroed();
    // SAFETY: every pointer refers to a live local array of the rank cuTensorMapEncodeTiled reads.
    let r = unsafe {
        dsys::cuTensorMapEncodeTiled(
            out.as_mut_ptr(),
            dt,
            rank as u32,
            ptr as *mut std::ffi::c_void,
            extents.as_ptr(),
            strides.as_ptr(),
            boxes.as_ptr(),
            estr.as_ptr(),
            Il::CU_TENSOR_MAP_INTERLEAVE_NONE,
            sw,
            L2::CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
            Oob::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
        )
    };
    if r != dsys::CUresult::CUDA_SUCCESS {
        return Err(GpuError::Driver {
            call: "cuTensorMapEncodeTiled".into(),
            detail: format!(
                "{r:?} for {} ({}x{}, ld {}, outer {:?}, box {:?}, swizzle {})",
                map.name,
                map.extents[0],
                map.extents[1],
                map.ld,
                map.outer,
                map.box_dims,
                map.swizzle_bytes
            ),
        });
    }
    // SAFETY: the call succeeded, so the map is initialized.
    Ok(TensorMap(unsafe { out.assume_init() }.opaque))
}
