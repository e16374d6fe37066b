//! Programmatic dependent launch (SM90 and later): `cuLaunchKernelEx` with programmatic stream
//! serialization, so that a kernel's CTAs launch and run their set-up while the kernel before it in the
//! stream finishes. The kernel itself waits (`griddepcontrol.wait`) before it touches global memory
//! ([`crate::kernel::Kernel::dependent_launch`]); a kernel without that wait is never launched this way.

use super::cuda;
use crate::Result;
use cudarc::driver::{CudaContext, CudaFunction, CudaStream, LaunchConfig, sys};
use std::ffi::c_void;

/// Whether GPUs of `arch` (`sm_90a`, `sm_100a`, `sm_86`) support programmatic dependent launch: compute
/// capability 9.0 and later.
pub(super) fn supported(arch: &str) -> bool {
    let digits: String = arch
        .trim_start_matches("sm_")
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse::<u32>().is_ok_and(|cc| cc >= 90)
}

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

#[cfg(test)]
mod tests {
    use super::supported;

    #[test]
    fn hopper_and_later_support_dependent_launch() {
        for (arch, yes) in [
            ("sm_90a", true),
            ("sm_90", true),
            ("sm_100a", true),
            ("sm_120", true),
            ("sm_89", false),
            ("sm_80", false),
            ("sm_", false),
        ] {
            assert_eq!(supported(arch), yes, "{arch}");
        }
    }
}
