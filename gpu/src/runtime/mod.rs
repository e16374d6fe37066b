//! The one runtime: compile generated kernels with NVRTC for the device (one cache, keyed by architecture
//! and source), bind their buffers (checking count, alignment and size before any launch), encode their
//! TMA tensor maps, and launch them on the runtime's stream; persistent kernels get at most one CTA per SM
//! (the SM count is queried from the device).
//!
//! Every entry point checks for libcuda first and returns [`GpuError::LibraryMissing`] or
//! [`GpuError::Driver`] instead of panicking when CUDA or a GPU is missing.

pub mod baseline;
pub mod bench;
pub mod cublaslt;
pub mod tensor_map;

use crate::cubin_cache::CubinCache;
use crate::error::{GpuError, Result, driver};
use crate::kernel::{Arg, Kernel};
use crate::nvrtc::PtxasReport;
use cudarc::driver::{
    CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, DevicePtr, DeviceRepr,
    LaunchConfig, PushKernelArg, ValidAsZeroBits, sys,
};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tensor_map::TensorMap;

fn cuda(what: &str) -> impl FnOnce(cudarc::driver::DriverError) -> GpuError + '_ {
    driver(what)
}

/// Whether libcuda can be loaded.
pub fn driver_available() -> bool {
    crate::libs::present(&["cuda", "nvcuda"])
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
    /// NVRTC compile time in seconds.
    pub compile_s: f64,
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawBuffer {
    ptr: u64,
    bytes: usize,
}

/// The device context, its stream and the kernel cache.
pub struct Runtime {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    arch: String,
    sm_count: u32,
    cache: Mutex<HashMap<String, Arc<LoadedKernel>>>,
    disk: CubinCache,
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
            return Err(GpuError::NoDevice {
                ordinal,
                count: n as usize,
            });
        }
        let ctx = CudaContext::new(ordinal).map_err(cuda("cuCtxCreate"))?;
        Runtime::with_stream(ctx.default_stream())
    }

    /// A runtime launching on the caller's `stream` (and its context), e.g. a candle or user stream.
    pub fn with_stream(stream: Arc<CudaStream>) -> Result<Runtime> {
        if !crate::nvrtc::nvrtc_available() {
            return Err(GpuError::LibraryMissing("libnvrtc"));
        }
        let ctx = stream.context().clone();
        let (major, minor) = ctx
            .compute_capability()
            .map_err(cuda("compute capability"))?;
        // Hopper gets the `a` target (wgmma, setmaxnreg); others their plain sm_XY.
        let arch = if major == 9 {
            format!("sm_{major}{minor}a")
        } else {
            format!("sm_{major}{minor}")
        };
        let sm_count = ctx
            .attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
            .map_err(cuda("SM count"))? as u32;
        Ok(Runtime {
            ctx,
            stream,
            arch,
            sm_count,
            cache: Mutex::new(HashMap::new()),
            disk: CubinCache::from_env(),
        })
    }

    /// The architecture kernels are compiled for (`sm_90a` on an H100).
    pub fn arch(&self) -> &str {
        &self.arch
    }

    /// Streaming multiprocessors of the device (the grid of persistent kernels).
    pub fn sm_count(&self) -> u32 {
        self.sm_count
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
            .map_err(|_| GpuError::Driver {
                call: "kernel cache".into(),
                detail: "lock poisoned by a panic in another thread".into(),
            })?
            .get(&key)
        {
            return Ok(l.clone());
        }
        let t0 = std::time::Instant::now();
        let (compiled, _cached) = self.disk.get_or_compile(&k.source, &k.name, &self.arch)?;
        let compile_s = t0.elapsed().as_secs_f64();
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
            compile_s,
        });
        self.cache
            .lock()
            .map_err(|_| GpuError::Driver {
                call: "kernel cache".into(),
                detail: "lock poisoned by a panic in another thread".into(),
            })?
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

    /// Launches `k` with its buffers bound in order to `buffers` (asynchronous).
    pub fn launch(&self, k: &Kernel, buffers: &[RawBuffer]) -> Result<()> {
        let prepared = self.prepare(k, buffers)?;
        self.run(&prepared)
    }

    /// Launches an already loaded kernel (its tensor maps are encoded again).
    pub fn launch_loaded(
        &self,
        k: &Kernel,
        loaded: &Arc<LoadedKernel>,
        buffers: &[RawBuffer],
    ) -> Result<()> {
        self.run(&self.bind_kernel(k, loaded.clone(), buffers)?)
    }

    /// Loads `k` and binds `buffers` to it: the checks and the tensor-map encoding happen here, once, so
    /// that [`Runtime::run`] only launches.
    pub fn prepare(&self, k: &Kernel, buffers: &[RawBuffer]) -> Result<Prepared> {
        let loaded = self.load(k)?;

        self.bind_kernel(k, loaded, buffers)
    }

    /// Binds `buffers` to `k`, already loaded as `loaded` (checks, tensor maps): launch it with [`Runtime::run`].
    pub fn bind_kernel(
        &self,
        k: &Kernel,
        loaded: Arc<LoadedKernel>,
        buffers: &[RawBuffer],
    ) -> Result<Prepared> {
        check_buffers(k, buffers)?;
        let find = |name: &str| -> Result<RawBuffer> {
            let i = k.buffers.iter().position(|b| b.name == name);
            i.map(|i| buffers[i]).ok_or_else(|| GpuError::Config {
                kernel: "runtime",
                reason: format!("{}: argument refers to an unknown buffer {name}", k.name),
            })
        };
        let mut values = Vec::with_capacity(k.args.len());
        for a in &k.args {
            values.push(match a {
                Arg::Ptr(n) => ArgValue::Ptr(find(n)?.ptr),
                Arg::TensorMap(m) => ArgValue::Map(tensor_map::encode(m, find(&m.buffer)?.ptr)?),
                Arg::I32(_, v) => ArgValue::I32(*v),
                Arg::I64(_, v) => ArgValue::I64(*v),
                Arg::F32(_, v) => ArgValue::F32(*v),
            });
        }
        let mut grid = k.grid;
        if k.persistent {
            grid.0 = grid.0.min(self.sm_count).max(1);
        }
        Ok(Prepared {
            loaded,
            values,
            config: LaunchConfig {
                grid_dim: grid,
                block_dim: k.block,
                shared_mem_bytes: k.dynamic_smem_bytes,
            },
        })
    }

    /// Launches a prepared kernel (asynchronous).
    pub fn run(&self, p: &Prepared) -> Result<()> {
        let mut b = self.stream.launch_builder(&p.loaded.function);
        for v in &p.values {
            match v {
                ArgValue::Ptr(x) => b.arg(x),
                ArgValue::Map(x) => b.arg(x),
                ArgValue::I32(x) => b.arg(x),
                ArgValue::I64(x) => b.arg(x),
                ArgValue::F32(x) => b.arg(x),
            };
        }
        // SAFETY: the arguments are the kernel's parameter list in order (types from its description),
        // the buffers were checked to be large enough and aligned.
        unsafe { b.launch(p.config) }.map_err(cuda("cuLaunchKernel"))?;
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
            return Err(GpuError::BufferTooSmall {
                arg: "memcpy".into(),
                bytes: dst.bytes.min(src.bytes),
                needed: bytes,
            });
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
    /// A buffer of `bytes` bytes at device address `ptr` (the caller keeps the memory alive and tracked
    /// until the launches that use it are enqueued).
    pub fn new(ptr: u64, bytes: usize) -> RawBuffer {
        RawBuffer { ptr, bytes }
    }
    /// Raw device address.
    pub fn ptr(&self) -> u64 {
        self.ptr
    }
    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

/// A kernel argument's value, as the launch passes it.
enum ArgValue {
    Ptr(u64),
    Map(TensorMap),
    I32(i32),
    I64(i64),
    F32(f32),
}

/// A kernel bound to its buffers, tensor maps encoded: launch it with [`Runtime::run`].
pub struct Prepared {
    loaded: Arc<LoadedKernel>,
    values: Vec<ArgValue>,
    config: LaunchConfig,
}

impl Prepared {
    /// The loaded kernel (registers, ptxas report).
    pub fn loaded(&self) -> &LoadedKernel {
        &self.loaded
    }
    /// The grid the launch uses (persistent kernels: at most one CTA per SM).
    pub fn grid(&self) -> (u32, u32, u32) {
        self.config.grid_dim
    }
}

/// The buffers a launch binds: as many as the kernel takes, aligned for its vector accesses, and at least
/// as large as the tensors it reads and writes.
fn check_buffers(k: &Kernel, buffers: &[RawBuffer]) -> Result<()> {
    if k.buffers.len() != buffers.len() {
        return Err(GpuError::ArgCount {
            kernel: k.name.clone(),
            expected: k.buffers.len(),
            given: buffers.len(),
        });
    }
    for (spec, b) in k.buffers.iter().zip(buffers) {
        if b.ptr % k.pointer_alignment as u64 != 0 {
            return Err(GpuError::Misaligned {
                arg: spec.name.clone(),
                address: b.ptr,
                alignment: k.pointer_alignment,
            });
        }
        if b.bytes < spec.bytes {
            return Err(GpuError::BufferTooSmall {
                arg: spec.name.clone(),
                bytes: b.bytes,
                needed: spec.bytes,
            });
        }
    }
    Ok(())
}
