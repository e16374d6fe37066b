//! Runner: compile generated kernels with NVRTC for the device, cache them by source, launch them.
//!
//! Every entry point checks for libcuda first and returns [`GpuError::LibraryMissing`] or
//! [`GpuError::Cuda`] instead of panicking when CUDA or a GPU is missing.

use crate::error::{GpuError, Result};
use crate::kernel::{Arg, Kernel};
use crate::nvrtc::{PtxasReport, compile};
use cudarc::driver::{
    CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, DevicePtr, DeviceRepr,
    LaunchConfig, PushKernelArg, ValidAsZeroBits, sys,
};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

fn cuda<E: std::fmt::Debug>(what: &str) -> impl FnOnce(E) -> GpuError + '_ {
    move |e| GpuError::Cuda(format!("{what}: {e:?}"))
}

/// Whether libcuda can be loaded.
pub fn driver_available() -> bool {
    std::panic::catch_unwind(|| unsafe { sys::is_culib_present() }).unwrap_or(false)
}

/// A kernel loaded on the device, with what ptxas and the driver say about it.
pub struct LoadedKernel {
    _module: Arc<CudaModule>,
    function: CudaFunction,
    /// ptxas's report from the compile.
    pub report: PtxasReport,
    /// Registers per thread (driver attribute).
    pub registers: i32,
    /// Local memory per thread in bytes (driver attribute).
    pub local_bytes: i32,
}

/// A typed device buffer.
pub struct DeviceBuffer<T> {
    slice: CudaSlice<T>,
}

impl<T> DeviceBuffer<T> {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.slice.len()
    }
    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.slice.len() == 0
    }
    /// The underlying cudarc slice.
    pub fn slice(&self) -> &CudaSlice<T> {
        &self.slice
    }
    /// The underlying cudarc slice, mutably.
    pub fn slice_mut(&mut self) -> &mut CudaSlice<T> {
        &mut self.slice
    }
    fn raw(&self, stream: &CudaStream) -> u64 {
        let (p, _sync) = self.slice.device_ptr(stream);
        p
    }
}

/// A bound kernel argument: a buffer's raw device address and size in bytes.
#[derive(Clone, Copy, Debug)]
pub struct RawBuffer {
    ptr: u64,
    bytes: usize,
}

/// The device context, its stream and the kernel cache.
pub struct Runtime {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    arch: String,
    cache: Mutex<HashMap<String, Arc<LoadedKernel>>>,
}

impl Runtime {
    /// Opens GPU `ordinal`. Errors (no panic) when libcuda, libnvrtc or a GPU is missing.
    pub fn new(ordinal: usize) -> Result<Runtime> {
        if !driver_available() {
            return Err(GpuError::LibraryMissing("libcuda"));
        }
        if !crate::nvrtc::nvrtc_available() {
            return Err(GpuError::LibraryMissing("libnvrtc"));
        }
        let n = CudaContext::device_count().map_err(cuda("cuDeviceGetCount"))?;
        if n as usize <= ordinal {
            return Err(GpuError::Cuda(format!("no GPU {ordinal}: {n} device(s)")));
        }
        let ctx = CudaContext::new(ordinal).map_err(cuda("cuCtxCreate"))?;
        let (major, minor) = ctx
            .compute_capability()
            .map_err(cuda("compute capability"))?;
        // Hopper gets the `a` target (wgmma, setmaxnreg); others their plain sm_XY.
        let arch = if major == 9 {
            format!("sm_{major}{minor}a")
        } else {
            format!("sm_{major}{minor}")
        };
        let stream = ctx.default_stream();
        Ok(Runtime {
            ctx,
            stream,
            arch,
            cache: Mutex::new(HashMap::new()),
        })
    }

    /// The architecture kernels are compiled for (`sm_90a` on an H100).
    pub fn arch(&self) -> &str {
        &self.arch
    }

    /// Device name.
    pub fn device_name(&self) -> Result<String> {
        self.ctx.name().map_err(cuda("device name"))
    }

    /// The stream everything runs on.
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// The context.
    pub fn context(&self) -> &Arc<CudaContext> {
        &self.ctx
    }

    /// Compiles (or takes from the cache, keyed by source) and loads a kernel.
    pub fn load(&self, k: &Kernel) -> Result<Arc<LoadedKernel>> {
        let key = format!("{}\n{}", self.arch, k.source);
        if let Some(l) = self
            .cache
            .lock()
            .map_err(|_| GpuError::Cuda("cache lock poisoned".into()))?
            .get(&key)
        {
            return Ok(l.clone());
        }
        let compiled = compile(&k.source, &k.name, &self.arch)?;
        let module = self
            .ctx
            .load_module(cudarc::nvrtc::Ptx::from_binary(compiled.cubin))
            .map_err(cuda("cuModuleLoadData"))?;
        let function = module
            .load_function(&k.name)
            .map_err(cuda("cuModuleGetFunction"))?;
        if k.dynamic_smem_bytes > 48 * 1024 {
            function
                .set_attribute(
                    sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    k.dynamic_smem_bytes as i32,
                )
                .map_err(cuda("cuFuncSetAttribute(max dynamic smem)"))?;
        }
        let registers = function.num_regs().map_err(cuda("num_regs"))?;
        let local_bytes = function
            .local_size_bytes()
            .map_err(cuda("local_size_bytes"))?;
        let l = Arc::new(LoadedKernel {
            _module: module,
            function,
            report: compiled.report,
            registers,
            local_bytes,
        });
        self.cache
            .lock()
            .map_err(|_| GpuError::Cuda("cache lock poisoned".into()))?
            .insert(key, l.clone());
        Ok(l)
    }

    /// Copies host data to a new device buffer.
    pub fn upload<T: DeviceRepr>(&self, host: &[T]) -> Result<DeviceBuffer<T>> {
        Ok(DeviceBuffer {
            slice: self.stream.clone_htod(host).map_err(cuda("htod"))?,
        })
    }

    /// A zeroed device buffer of `n` elements.
    pub fn zeros<T: DeviceRepr + ValidAsZeroBits>(&self, n: usize) -> Result<DeviceBuffer<T>> {
        Ok(DeviceBuffer {
            slice: self.stream.alloc_zeros::<T>(n).map_err(cuda("alloc"))?,
        })
    }

    /// Copies a device buffer back.
    pub fn download<T: DeviceRepr + Default + Clone>(&self, b: &DeviceBuffer<T>) -> Result<Vec<T>> {
        self.stream.clone_dtoh(&b.slice).map_err(cuda("dtoh"))
    }

    /// Binds a buffer as a pointer argument.
    pub fn bind<T>(&self, b: &DeviceBuffer<T>) -> RawBuffer {
        RawBuffer {
            ptr: b.raw(&self.stream),
            bytes: b.len() * std::mem::size_of::<T>(),
        }
    }

    /// Launches `k` with its pointer arguments bound in order to `ptrs` (asynchronous).
    pub fn launch(&self, k: &Kernel, ptrs: &[RawBuffer]) -> Result<()> {
        let loaded = self.load(k)?;
        self.launch_loaded(k, &loaded, ptrs)
    }

    /// Launches an already loaded kernel.
    pub fn launch_loaded(
        &self,
        k: &Kernel,
        loaded: &LoadedKernel,
        ptrs: &[RawBuffer],
    ) -> Result<()> {
        let names = k.pointer_names();
        if names.len() != ptrs.len() {
            return Err(GpuError::Launch(format!(
                "{} takes {} pointers ({:?}), {} given",
                k.name,
                names.len(),
                names,
                ptrs.len()
            )));
        }
        for (n, p) in names.iter().zip(ptrs) {
            if p.ptr % k.pointer_alignment as u64 != 0 {
                return Err(GpuError::Launch(format!(
                    "{n} is not {}-byte aligned",
                    k.pointer_alignment
                )));
            }
        }
        let mut ptr_vals: Vec<u64> = Vec::new();
        let mut i32_vals: Vec<i32> = Vec::new();
        let mut i64_vals: Vec<i64> = Vec::new();
        let mut f32_vals: Vec<f32> = Vec::new();
        let mut pi = 0;
        for a in &k.args {
            match a {
                Arg::Ptr(_) => {
                    ptr_vals.push(ptrs[pi].ptr);
                    pi += 1;
                }
                Arg::I32(_, v) => i32_vals.push(*v),
                Arg::I64(_, v) => i64_vals.push(*v),
                Arg::F32(_, v) => f32_vals.push(*v),
            }
        }
        let mut b = self.stream.launch_builder(&loaded.function);
        let (mut ip, mut ii, mut il, mut ifl) = (0, 0, 0, 0);
        for a in &k.args {
            match a {
                Arg::Ptr(_) => {
                    b.arg(&ptr_vals[ip]);
                    ip += 1;
                }
                Arg::I32(..) => {
                    b.arg(&i32_vals[ii]);
                    ii += 1;
                }
                Arg::I64(..) => {
                    b.arg(&i64_vals[il]);
                    il += 1;
                }
                Arg::F32(..) => {
                    b.arg(&f32_vals[ifl]);
                    ifl += 1;
                }
            }
        }
        let cfg = LaunchConfig {
            grid_dim: k.grid,
            block_dim: k.block,
            shared_mem_bytes: k.dynamic_smem_bytes,
        };
        unsafe { b.launch(cfg) }.map_err(cuda("cuLaunchKernel"))?;
        Ok(())
    }

    /// Waits for the stream.
    pub fn sync(&self) -> Result<()> {
        self.stream.synchronize().map_err(cuda("synchronize"))
    }

    /// Times `iters` runs of `f` on the stream with events; returns milliseconds per run.
    pub fn time_ms<F: FnMut() -> Result<()>>(
        &self,
        warmup: usize,
        iters: usize,
        mut f: F,
    ) -> Result<f64> {
        for _ in 0..warmup {
            f()?;
        }
        let flags = Some(sys::CUevent_flags::CU_EVENT_DEFAULT);
        let start = self.ctx.new_event(flags).map_err(cuda("event"))?;
        let end = self.ctx.new_event(flags).map_err(cuda("event"))?;
        start.record(&self.stream).map_err(cuda("event record"))?;
        for _ in 0..iters {
            f()?;
        }
        end.record(&self.stream).map_err(cuda("event record"))?;
        end.synchronize().map_err(cuda("event sync"))?;
        let ms = start.elapsed_ms(&end).map_err(cuda("elapsed"))?;
        Ok(ms as f64 / iters.max(1) as f64)
    }

    /// `cuMemcpyDtoD` of `bytes` from `src` to `dst` on the stream.
    pub fn memcpy_dtod(&self, dst: RawBuffer, src: RawBuffer, bytes: usize) -> Result<()> {
        if bytes > dst.bytes || bytes > src.bytes {
            return Err(GpuError::Launch("memcpy larger than a buffer".into()));
        }
        unsafe {
            cudarc::driver::result::memcpy_dtod_async(
                dst.ptr,
                src.ptr,
                bytes,
                self.stream.cu_stream(),
            )
        }
        .map_err(cuda("cuMemcpyDtoDAsync"))
    }
}

impl RawBuffer {
    /// Raw device address.
    pub fn ptr(&self) -> u64 {
        self.ptr
    }
    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}
