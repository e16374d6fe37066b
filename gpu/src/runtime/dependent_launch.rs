//! Programmatic dependent launch (SM90 and later): `cuLaunchKernelEx` with programmatic stream
//! serialization, so that a kernel's CTAs launch and run their set-up while the kernel before it in the
//! stream finishes. The kernel itself waits (`griddepcontrol.wait`) before it touches global memory
//! ([`crate::kernel::Kernel::dependent_launch`]); a kernel without that wait is never launched this way.

use super::cuda;
use crate::Result;
use cudarc::driver::{CudaContext, CudaFunction, CudaStream, LaunchConfig, sys};
use std::ffi::c_void;

/// Launches `function` on `stream` with programmatic stream serialization allowed.
///
/// # Safety
///
/// `params` are the kernel's parameters in order, each the address of a value of the parameter's type,
/// alive for the call; the buffers they name were checked against the kernel.
pub(super) unsafe fn launch(
    ctx: &CudaContext,
    stream: &CudaStream,
    function: &CudaFunction,
    config: LaunchConfig,
    params: &mut [*mut c_void],
) -> Result<()> {
    ctx.bind_to_thread().map_err(cuda("bind context"))?;
    // SAFETY: plain-data union; the attribute reads the member its id names.
    let mut value: sys::CUlaunchAttributeValue = unsafe { std::mem::zeroed() };
    value.programmaticStreamSerializationAllowed = 1;
    let mut attribute = sys::CUlaunchAttribute {
        id: sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION,
        pad: [0; 4],
        value,
    };
    let (grid, block) = (config.grid_dim, config.block_dim);
    let launch = sys::CUlaunchConfig {
        gridDimX: grid.0,
        gridDimY: grid.1,
        gridDimZ: grid.2,
        blockDimX: block.0,
        blockDimY: block.1,
        blockDimZ: block.2,
        sharedMemBytes: config.shared_mem_bytes,
        hStream: stream.cu_stream(),
        attrs: &mut attribute,
        numAttrs: 1,
    };
    // SAFETY: the caller's contract on `params`; the configuration and attribute outlive the call.
    unsafe {
        sys::cuLaunchKernelEx(
            &launch,
            function.cu_function(),
            params.as_mut_ptr(),
            std::ptr::null_mut(),
        )
    }
    .result()
    .map_err(cuda("cuLaunchKernelEx"))
}
