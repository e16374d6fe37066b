//! The one runtime: compile generated kernels with NVRTC for the device (one cache, keyed by architecture
//! and source), bind their buffers (checking count, alignment and size before any launch), encode their
//! TMA tensor maps, and launch them on the runtime's stream; persistent kernels get at most one CTA per SM
//! (the SM count is queried from the device).
//!
//! Every entry point checks for libcuda first and returns [`GpuError::LibraryMissing`] or
//! [`GpuError::Driver`] instead of panicking when CUDA or a GPU is missing.
//!
//! ```no_run
//! use cute_gpu::{kernels::transpose::{TransposeSpec, generate_transpose}, runtime::Runtime};
//! let rt = Runtime::new(0).unwrap();
//! let l = |s: &str| s.parse().unwrap();
//! let k = generate_transpose(&TransposeSpec::new(l("(256,128):(128,_1)"), l("(256,128):(_1,256)"), 4)).unwrap();
//! let src: Vec<f32> = (0..256 * 128).map(|i| i as f32).collect();
//! let (s, d) = (rt.upload(&src).unwrap(), rt.zeros::<f32>(256 * 128).unwrap());
//! rt.launch(&k, &[rt.bind(&s), rt.bind(&d)]).unwrap();
//! assert_eq!(rt.download(&d).unwrap()[1], src[128]); // dst(1,0) = src(1,0)
//! ```

pub mod baseline;
pub mod bench;
pub mod cublaslt;
mod dependent_launch;
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
///
/// ```
/// use cute_gpu::{GpuError, runtime::{Runtime, driver_available}};
/// if !driver_available() {
///     assert!(matches!(Runtime::new(0), Err(GpuError::LibraryMissing("libcuda"))));
/// }
/// ```
pub fn driver_available() -> bool {
    crate::libs::present(&["cuda", "nvcuda"])
}

/// A kernel loaded on the device, with what ptxas and the driver say about it.
///
/// ```no_run
/// use cute_gpu::{kernels::copy::{CopySpec, generate_copy}, runtime::Runtime};
/// let rt = Runtime::new(0).unwrap();
/// let l: cute_layout_core::Layout = "(_64,_64):(_64,_1)".parse().unwrap();
/// let k = generate_copy(&CopySpec::new(l.clone(), l, 4)).unwrap();
/// let (src, dst) = (rt.upload(&vec![1.0f32; 4096]).unwrap(), rt.zeros::<f32>(4096).unwrap());
/// let loaded = rt.load(&k).unwrap();
/// assert_eq!(loaded.local_bytes, 0); // no spills
/// println!("{} registers, compiled in {:.2} s", loaded.registers, loaded.compile_s);
/// ```
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
    /// Clusters of the kernel's size that fit on the GPU at once (`cuOccupancyMaxActiveClusters`);
    /// `None` for kernels without clusters.
    pub max_clusters: Option<u32>,
}

/// A typed device buffer.
///
/// ```no_run
/// use cute_gpu::runtime::Runtime;
/// let rt = Runtime::new(0).unwrap();
/// let b = rt.upload(&[1.0f32, 2.0, 3.0]).unwrap();
/// assert_eq!((b.len(), rt.download(&b).unwrap()), (3, vec![1.0, 2.0, 3.0]));
/// ```
pub struct DeviceBuffer<T> {
    slice: CudaSlice<T>,
}

impl<T> DeviceBuffer<T> {
    /// Number of elements.
    ///
    /// ```no_run
    /// # use cute_gpu::runtime::Runtime;
    /// # let rt = Runtime::new(0).unwrap();
    /// assert_eq!(rt.zeros::<u16>(1000).unwrap().len(), 1000);
    /// ```
    pub fn len(&self) -> usize {
        self.slice.len()
    }
    /// True when empty.
    ///
    /// ```no_run
    /// # use cute_gpu::runtime::Runtime;
    /// # let rt = Runtime::new(0).unwrap();
    /// assert!(rt.zeros::<f32>(0).unwrap().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.slice.len() == 0
    }
    /// The underlying cudarc slice.
    ///
    /// ```no_run
    /// # use cute_gpu::runtime::Runtime;
    /// # let rt = Runtime::new(0).unwrap();
    /// let b = rt.upload(&[7u32; 8]).unwrap();
    /// assert_eq!(rt.stream().clone_dtoh(b.slice()).unwrap(), vec![7u32; 8]);
    /// ```
    pub fn slice(&self) -> &CudaSlice<T> {
        &self.slice
    }
    /// The underlying cudarc slice, mutably.
    ///
    /// ```no_run
    /// # use cute_gpu::runtime::Runtime;
    /// # let rt = Runtime::new(0).unwrap();
    /// let mut b = rt.zeros::<u32>(4).unwrap();
    /// rt.stream().memcpy_htod(&[1u32, 2, 3, 4], b.slice_mut()).unwrap();
    /// assert_eq!(rt.download(&b).unwrap(), vec![1, 2, 3, 4]);
    /// ```
    pub fn slice_mut(&mut self) -> &mut CudaSlice<T> {
        &mut self.slice
    }
    fn raw(&self, stream: &CudaStream) -> u64 {
        let (p, _sync) = self.slice.device_ptr(stream);
        p
    }
}

/// A bound kernel argument: a buffer's raw device address and size in bytes.
///
/// ```
/// use cute_gpu::runtime::RawBuffer;
/// let b = RawBuffer::new(0x7f00_0000_0000, 4096);
/// assert_eq!((b.ptr(), b.bytes()), (0x7f00_0000_0000, 4096));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawBuffer {
    ptr: u64,
    bytes: usize,
}

/// The device context, its stream and the kernel cache.
///
/// ```no_run
/// use cute_gpu::{kernels::copy::{CopySpec, generate_copy}, runtime::Runtime};
/// let rt = Runtime::new(0).unwrap();
/// let l: cute_layout_core::Layout = "(_64,_64):(_64,_1)".parse().unwrap();
/// let k = generate_copy(&CopySpec::new(l.clone(), l, 4)).unwrap();
/// let (src, dst) = (rt.upload(&vec![1.0f32; 4096]).unwrap(), rt.zeros::<f32>(4096).unwrap());
/// rt.launch(&k, &[rt.bind(&src), rt.bind(&dst)]).unwrap();
/// assert_eq!(rt.download(&dst).unwrap(), vec![1.0f32; 4096]);
/// ```
pub struct Runtime {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    arch: String,
    sm_count: u32,
    cache: Mutex<HashMap<String, Arc<LoadedKernel>>>,
    disk: CubinCache,
    /// Kernels that wait for the previous grid ([`Kernel::dependent_launch`]) are launched with
    /// programmatic stream serialization (SM90 and later; on by default there).
    dependent_launch: bool,
}

impl Runtime {
    /// Opens GPU `ordinal`. Errors (no panic) when libcuda, libnvrtc or a GPU is missing.
    ///
    /// ```
    /// use cute_gpu::runtime::Runtime;
    /// match Runtime::new(0) {
    ///     Ok(rt) => assert!(rt.sm_count() > 0),
    ///     Err(e) => println!("no GPU here: {e}"), // LibraryMissing, NoDevice or Driver
    /// }
    /// ```
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
    ///
    /// ```no_run
    /// use cute_gpu::runtime::Runtime;
    /// let ctx = cudarc::driver::CudaContext::new(0).unwrap();
    /// let stream = ctx.new_stream().unwrap();
    /// let rt = Runtime::with_stream(stream.clone()).unwrap();
    /// assert!(std::sync::Arc::ptr_eq(rt.stream(), &stream));
    /// ```
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
            dependent_launch: crate::kernel::supports_dependent_launch(&arch),
            ctx,
            stream,
            arch,
            sm_count,
            cache: Mutex::new(HashMap::new()),
            disk: CubinCache::from_env(),
        })
    }

    /// Whether kernels that wait for the previous grid in the stream ([`Kernel::dependent_launch`]: the
    /// SM90 GEMMs) are launched with programmatic stream serialization, so that a launch and its set-up
    /// overlap the tail of the kernel before it. On by default on SM90 and later, where `on` is honoured;
    /// never on older GPUs. Takes effect for kernels bound ([`Runtime::bind_kernel`]) afterwards.
    ///
    /// ```no_run
    /// # use cute_gpu::runtime::Runtime;
    /// let mut rt = Runtime::new(0).unwrap();
    /// println!("{}: {}", rt.arch(), rt.dependent_launch()); // sm_90a: true
    /// rt.set_dependent_launch(false);
    /// assert!(!rt.dependent_launch());
    /// ```
    pub fn set_dependent_launch(&mut self, on: bool) {
        self.dependent_launch = on && crate::kernel::supports_dependent_launch(&self.arch);
    }

    /// Whether dependent kernels are launched with programmatic stream serialization
    /// ([`Runtime::set_dependent_launch`]).
    ///
    /// ```no_run
    /// # use cute_gpu::runtime::Runtime;
    /// let rt = Runtime::new(0).unwrap();
    /// println!("programmatic dependent launch: {}", rt.dependent_launch());
    /// ```
    pub fn dependent_launch(&self) -> bool {
        self.dependent_launch
    }

    /// The architecture kernels are compiled for (`sm_90a` on an H100).
    ///
    /// ```no_run
    /// # use cute_gpu::runtime::Runtime;
    /// # let rt = Runtime::new(0).unwrap();
    /// assert!(rt.arch().starts_with("sm_"));
    /// ```
    pub fn arch(&self) -> &str {
        &self.arch
    }

    /// Streaming multiprocessors of the device (the grid of persistent kernels).
    ///
    /// ```no_run
    /// # use cute_gpu::runtime::Runtime;
    /// # let rt = Runtime::new(0).unwrap();
    /// println!("{} SMs", rt.sm_count()); // 132 on an H100 SXM
    /// assert!(rt.sm_count() > 0);
    /// ```
    pub fn sm_count(&self) -> u32 {
        self.sm_count
    }

    /// Device name.
    ///
    /// ```no_run
    /// # use cute_gpu::runtime::Runtime;
    /// # let rt = Runtime::new(0).unwrap();
    /// println!("{}", rt.device_name().unwrap()); // e.g. "NVIDIA H100 80GB HBM3"
    /// ```
    pub fn device_name(&self) -> Result<String> {
        self.ctx.name().map_err(cuda("device name"))
    }

    /// The stream everything runs on.
    ///
    /// ```no_run
    /// # use cute_gpu::runtime::Runtime;
    /// # let rt = Runtime::new(0).unwrap();
    /// let b = rt.stream().clone_htod(&[1.0f32; 16]).unwrap(); // a plain cudarc slice on the same stream
    /// assert_eq!(b.len(), 16);
    /// ```
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// The context.
    ///
    /// ```no_run
    /// # use cute_gpu::runtime::Runtime;
    /// # let rt = Runtime::new(0).unwrap();
    /// let (major, _minor) = rt.context().compute_capability().unwrap();
    /// assert!(major >= 8);
    /// ```
    pub fn context(&self) -> &Arc<CudaContext> {
        &self.ctx
    }

    /// Compiles (or takes from the cache, keyed by source) and loads a kernel.
    ///
    /// ```no_run
    /// use cute_gpu::{kernels::copy::{CopySpec, generate_copy}, runtime::Runtime};
    /// let rt = Runtime::new(0).unwrap();
    /// let l: cute_layout_core::Layout = "(_64,_64):(_64,_1)".parse().unwrap();
    /// let k = generate_copy(&CopySpec::new(l.clone(), l, 4)).unwrap();
    /// let first = rt.load(&k).unwrap();
    /// assert!(std::sync::Arc::ptr_eq(&first, &rt.load(&k).unwrap())); // the second load is the cached one
    /// ```
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
        let max_clusters = match k.cluster {
            1 => None,
            n => Some(self.max_active_clusters(&function, k, n)?),
        };
        let l = Arc::new(LoadedKernel {
            _module: module,
            function,
            report: compiled.report,
            registers,
            local_bytes,
            compile_s,
            max_clusters,
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
    ///
    /// ```no_run
    /// # use cute_gpu::runtime::Runtime;
    /// # let rt = Runtime::new(0).unwrap();
    /// let b = rt.upload(&[1u16, 2, 3]).unwrap();
    /// assert_eq!(rt.download(&b).unwrap(), vec![1, 2, 3]);
    /// ```
    pub fn upload<T: DeviceRepr>(&self, host: &[T]) -> Result<DeviceBuffer<T>> {
        Ok(DeviceBuffer {
            slice: self.stream.clone_htod(host).map_err(cuda("htod"))?,
        })
    }

    /// A zeroed device buffer of `n` elements.
    ///
    /// ```no_run
    /// # use cute_gpu::runtime::Runtime;
    /// # let rt = Runtime::new(0).unwrap();
    /// let b = rt.zeros::<f32>(256).unwrap();
    /// assert_eq!(rt.download(&b).unwrap(), vec![0.0; 256]);
    /// ```
    pub fn zeros<T: DeviceRepr + ValidAsZeroBits>(&self, n: usize) -> Result<DeviceBuffer<T>> {
        Ok(DeviceBuffer {
            slice: self.stream.alloc_zeros::<T>(n).map_err(cuda("alloc"))?,
        })
    }

    /// Copies a device buffer back.
    ///
    /// ```no_run
    /// # use cute_gpu::runtime::Runtime;
    /// # let rt = Runtime::new(0).unwrap();
    /// let host: Vec<f32> = (0..100).map(|i| i as f32).collect();
    /// assert_eq!(rt.download(&rt.upload(&host).unwrap()).unwrap(), host);
    /// ```
    pub fn download<T: DeviceRepr + Default + Clone>(&self, b: &DeviceBuffer<T>) -> Result<Vec<T>> {
        self.stream.clone_dtoh(&b.slice).map_err(cuda("dtoh"))
    }

    /// Binds a buffer as a pointer argument.
    ///
    /// ```no_run
    /// # use cute_gpu::runtime::Runtime;
    /// # let rt = Runtime::new(0).unwrap();
    /// let b = rt.zeros::<f32>(1024).unwrap();
    /// let raw = rt.bind(&b);
    /// assert_eq!(raw.bytes(), 4096);
    /// assert_eq!(raw.ptr() % 16, 0); // aligned for 16-byte vector accesses
    /// ```
    pub fn bind<T>(&self, b: &DeviceBuffer<T>) -> RawBuffer {
        RawBuffer {
            ptr: b.raw(&self.stream),
            bytes: b.len() * std::mem::size_of::<T>(),
        }
    }

    /// Launches `k` with its buffers bound in order to `buffers` (asynchronous).
    ///
    /// ```no_run
    /// use cute_gpu::{kernels::copy::{CopySpec, generate_copy}, runtime::Runtime};
    /// let rt = Runtime::new(0).unwrap();
    /// let l: cute_layout_core::Layout = "(_64,_64):(_64,_1)".parse().unwrap();
    /// let k = generate_copy(&CopySpec::new(l.clone(), l, 4)).unwrap();
    /// let (src, dst) = (rt.upload(&vec![1.0f32; 4096]).unwrap(), rt.zeros::<f32>(4096).unwrap());
    /// rt.launch(&k, &[rt.bind(&src), rt.bind(&dst)]).unwrap();
    /// rt.sync().unwrap();
    /// assert!(rt.launch(&k, &[rt.bind(&src)]).is_err()); // one buffer short: checked before launching
    /// ```
    pub fn launch(&self, k: &Kernel, buffers: &[RawBuffer]) -> Result<()> {
        let prepared = self.prepare(k, buffers)?;
        self.run(&prepared)
    }

    /// Launches an already loaded kernel (its tensor maps are encoded again).
    ///
    /// ```no_run
    /// use cute_gpu::{kernels::copy::{CopySpec, generate_copy}, runtime::Runtime};
    /// let rt = Runtime::new(0).unwrap();
    /// let l: cute_layout_core::Layout = "(_64,_64):(_64,_1)".parse().unwrap();
    /// let k = generate_copy(&CopySpec::new(l.clone(), l, 4)).unwrap();
    /// let (src, dst) = (rt.upload(&vec![1.0f32; 4096]).unwrap(), rt.zeros::<f32>(4096).unwrap());
    /// let loaded = rt.load(&k).unwrap();
    /// rt.launch_loaded(&k, &loaded, &[rt.bind(&src), rt.bind(&dst)]).unwrap();
    /// assert_eq!(rt.download(&dst).unwrap(), vec![1.0f32; 4096]);
    /// ```
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
    ///
    /// ```no_run
    /// use cute_gpu::{kernels::copy::{CopySpec, generate_copy}, runtime::Runtime};
    /// let rt = Runtime::new(0).unwrap();
    /// let l: cute_layout_core::Layout = "(_64,_64):(_64,_1)".parse().unwrap();
    /// let k = generate_copy(&CopySpec::new(l.clone(), l, 4)).unwrap();
    /// let (src, dst) = (rt.upload(&vec![1.0f32; 4096]).unwrap(), rt.zeros::<f32>(4096).unwrap());
    /// let p = rt.prepare(&k, &[rt.bind(&src), rt.bind(&dst)]).unwrap();
    /// assert_eq!(p.grid(), k.grid);
    /// for _ in 0..10 { rt.run(&p).unwrap(); }
    /// ```
    pub fn prepare(&self, k: &Kernel, buffers: &[RawBuffer]) -> Result<Prepared> {
        let loaded = self.load(k)?;

        self.bind_kernel(k, loaded, buffers)
    }

    /// Binds `buffers` to `k`, already loaded as `loaded` (checks, tensor maps): launch it with [`Runtime::run`].
    ///
    /// ```no_run
    /// use cute_gpu::{kernels::copy::{CopySpec, generate_copy}, runtime::Runtime};
    /// let rt = Runtime::new(0).unwrap();
    /// let l: cute_layout_core::Layout = "(_64,_64):(_64,_1)".parse().unwrap();
    /// let k = generate_copy(&CopySpec::new(l.clone(), l, 4)).unwrap();
    /// let (src, dst) = (rt.upload(&vec![1.0f32; 4096]).unwrap(), rt.zeros::<f32>(4096).unwrap());
    /// let loaded = rt.load(&k).unwrap();
    /// let p = rt.bind_kernel(&k, loaded, &[rt.bind(&src), rt.bind(&dst)]).unwrap();
    /// rt.run(&p).unwrap();
    /// ```
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
        let grid = self.launch_grid(k, &loaded);
        Ok(Prepared {
            loaded,
            values,
            config: LaunchConfig {
                grid_dim: grid,
                block_dim: k.block,
                shared_mem_bytes: k.dynamic_smem_bytes,
            },
            dependent: k.dependent_launch && self.dependent_launch,
        })
    }

    /// The grid of a launch: the kernel's, with a persistent grid capped at one CTA per SM, or for a
    /// clustered kernel at the clusters that fit at once (whole clusters).
    fn launch_grid(&self, k: &Kernel, loaded: &LoadedKernel) -> (u32, u32, u32) {
        let mut grid = k.grid;
        if k.persistent {
            let cl = k.cluster.max(1);
            let fit = loaded.max_clusters.map_or(self.sm_count, |c| c.max(1) * cl);
            grid.0 = grid.0.min(fit.min(self.sm_count) / cl * cl).max(cl);
        }
        grid
    }

    /// `cuOccupancyMaxActiveClusters` for a kernel of `ctas`-CTA clusters (fixed at compile time).
    fn max_active_clusters(&self, f: &CudaFunction, k: &Kernel, ctas: u32) -> Result<u32> {
        let config = LaunchConfig {
            grid_dim: (ctas * (self.sm_count / ctas).max(1), 1, 1),
            block_dim: k.block,
            shared_mem_bytes: k.dynamic_smem_bytes,
        };
        let n = f
            .occupancy_max_active_clusters(config, &self.stream)
            .map_err(cuda("cuOccupancyMaxActiveClusters"))?;
        match n {
            0 => Err(GpuError::Config {
                kernel: "runtime",
                reason: format!(
                    "{}: no cluster of {ctas} CTAs x {} bytes of shared memory fits on this GPU",
                    k.name, k.dynamic_smem_bytes
                ),
            }),
            n => Ok(n),
        }
    }

    /// Launches a prepared kernel (asynchronous).
    ///
    /// ```no_run
    /// use cute_gpu::{kernels::copy::{CopySpec, generate_copy}, runtime::Runtime};
    /// let rt = Runtime::new(0).unwrap();
    /// let l: cute_layout_core::Layout = "(_64,_64):(_64,_1)".parse().unwrap();
    /// let k = generate_copy(&CopySpec::new(l.clone(), l, 4)).unwrap();
    /// let (src, dst) = (rt.upload(&vec![1.0f32; 4096]).unwrap(), rt.zeros::<f32>(4096).unwrap());
    /// let p = rt.prepare(&k, &[rt.bind(&src), rt.bind(&dst)]).unwrap();
    /// rt.run(&p).unwrap();
    /// assert_eq!(rt.download(&dst).unwrap(), vec![1.0f32; 4096]);
    /// ```
    pub fn run(&self, p: &Prepared) -> Result<()> {
        if p.dependent {
            let mut params: Vec<*mut std::ffi::c_void> =
                p.values.iter().map(ArgValue::as_param).collect();
            // SAFETY: as below; the parameter pointers point into `p`, alive across the (host-side) call.
            return unsafe {
                dependent_launch::launch(
                    &self.ctx,
                    &self.stream,
                    &p.loaded.function,
                    p.config,
                    &mut params,
                )
            };
        }
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
    ///
    /// ```no_run
    /// use cute_gpu::{kernels::copy::{CopySpec, generate_copy}, runtime::Runtime};
    /// let rt = Runtime::new(0).unwrap();
    /// let l: cute_layout_core::Layout = "(_64,_64):(_64,_1)".parse().unwrap();
    /// let k = generate_copy(&CopySpec::new(l.clone(), l, 4)).unwrap();
    /// let (src, dst) = (rt.upload(&vec![1.0f32; 4096]).unwrap(), rt.zeros::<f32>(4096).unwrap());
    /// rt.launch(&k, &[rt.bind(&src), rt.bind(&dst)]).unwrap();
    /// rt.sync().unwrap(); // the copy is done
    /// ```
    pub fn sync(&self) -> Result<()> {
        self.stream.synchronize().map_err(cuda("synchronize"))
    }

    /// Times `iters` runs of `f` on the stream with events; returns milliseconds per run.
    ///
    /// ```no_run
    /// use cute_gpu::{kernels::copy::{CopySpec, generate_copy}, runtime::Runtime};
    /// let rt = Runtime::new(0).unwrap();
    /// let l: cute_layout_core::Layout = "(_64,_64):(_64,_1)".parse().unwrap();
    /// let k = generate_copy(&CopySpec::new(l.clone(), l, 4)).unwrap();
    /// let (src, dst) = (rt.upload(&vec![1.0f32; 4096]).unwrap(), rt.zeros::<f32>(4096).unwrap());
    /// let p = rt.prepare(&k, &[rt.bind(&src), rt.bind(&dst)]).unwrap();
    /// let ms = rt.time_ms(3, 20, || rt.run(&p)).unwrap();
    /// println!("{:.1} GB/s", 2.0 * 4096.0 * 4.0 / ms / 1e6);
    /// ```
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
    ///
    /// ```no_run
    /// # use cute_gpu::runtime::Runtime;
    /// # let rt = Runtime::new(0).unwrap();
    /// let (src, dst) = (rt.upload(&[5u8; 64]).unwrap(), rt.zeros::<u8>(64).unwrap());
    /// rt.memcpy_dtod(rt.bind(&dst), rt.bind(&src), 64).unwrap();
    /// assert_eq!(rt.download(&dst).unwrap(), vec![5u8; 64]);
    /// assert!(rt.memcpy_dtod(rt.bind(&dst), rt.bind(&src), 65).is_err()); // past the buffers
    /// ```
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
    ///
    /// ```
    /// use cute_gpu::runtime::RawBuffer;
    /// let b = RawBuffer::new(0x1000, 256);
    /// assert_eq!(b, RawBuffer::new(0x1000, 256));
    /// ```
    pub fn new(ptr: u64, bytes: usize) -> RawBuffer {
        RawBuffer { ptr, bytes }
    }
    /// Raw device address.
    ///
    /// ```
    /// assert_eq!(cute_gpu::runtime::RawBuffer::new(0x1000, 256).ptr(), 0x1000);
    /// ```
    pub fn ptr(&self) -> u64 {
        self.ptr
    }
    /// Size in bytes.
    ///
    /// ```
    /// assert_eq!(cute_gpu::runtime::RawBuffer::new(0x1000, 256).bytes(), 256);
    /// ```
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

impl ArgValue {
    /// The address of the value, as `cuLaunchKernelEx` takes each parameter.
    fn as_param(&self) -> *mut std::ffi::c_void {
        match self {
            ArgValue::Ptr(x) => x as *const u64 as *mut _,
            ArgValue::Map(x) => x as *const TensorMap as *mut _,
            ArgValue::I32(x) => x as *const i32 as *mut _,
            ArgValue::I64(x) => x as *const i64 as *mut _,
            ArgValue::F32(x) => x as *const f32 as *mut _,
        }
    }
}

/// A kernel bound to its buffers, tensor maps encoded: launch it with [`Runtime::run`].
///
/// ```no_run
/// use cute_gpu::{kernels::copy::{CopySpec, generate_copy}, runtime::Runtime};
/// let rt = Runtime::new(0).unwrap();
/// let l: cute_layout_core::Layout = "(_64,_64):(_64,_1)".parse().unwrap();
/// let k = generate_copy(&CopySpec::new(l.clone(), l, 4)).unwrap();
/// let (src, dst) = (rt.upload(&vec![1.0f32; 4096]).unwrap(), rt.zeros::<f32>(4096).unwrap());
/// let p = rt.prepare(&k, &[rt.bind(&src), rt.bind(&dst)]).unwrap();
/// rt.run(&p).unwrap();
/// ```
pub struct Prepared {
    loaded: Arc<LoadedKernel>,
    values: Vec<ArgValue>,
    config: LaunchConfig,
    /// Launched with programmatic stream serialization ([`Runtime::set_dependent_launch`]).
    dependent: bool,
}

impl Prepared {
    /// The loaded kernel (registers, ptxas report).
    ///
    /// ```no_run
    /// use cute_gpu::{kernels::copy::{CopySpec, generate_copy}, runtime::Runtime};
    /// let rt = Runtime::new(0).unwrap();
    /// let l: cute_layout_core::Layout = "(_64,_64):(_64,_1)".parse().unwrap();
    /// let k = generate_copy(&CopySpec::new(l.clone(), l, 4)).unwrap();
    /// let (src, dst) = (rt.upload(&vec![1.0f32; 4096]).unwrap(), rt.zeros::<f32>(4096).unwrap());
    /// let p = rt.prepare(&k, &[rt.bind(&src), rt.bind(&dst)]).unwrap();
    /// assert_eq!(p.loaded().local_bytes, 0);
    /// ```
    pub fn loaded(&self) -> &LoadedKernel {
        &self.loaded
    }
    /// The grid the launch uses (persistent kernels: at most one CTA per SM).
    ///
    /// ```no_run
    /// use cute_gpu::{DType, configs::sm90_persistent_tma_store, kernels::gemm_sm90::*, runtime::Runtime};
    /// let rt = Runtime::new(0).unwrap();
    /// let p = HopperProblem::padded(4096, 4096, 4096);
    /// let k = generate_hopper_gemm(&p, DType::BF16, DType::BF16, &sm90_persistent_tma_store()).unwrap();
    /// let (a, b) = (rt.zeros::<u16>(p.a_len() as usize).unwrap(), rt.zeros::<u16>(p.b_len() as usize).unwrap());
    /// let d = rt.zeros::<u16>((p.m * p.ldd) as usize).unwrap();
    /// let prepared = rt.prepare(&k, &[rt.bind(&a), rt.bind(&b), rt.bind(&d)]).unwrap();
    /// assert_eq!(prepared.grid().0, rt.sm_count()); // 32x32 tiles: one CTA per SM loops over them
    /// ```
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
