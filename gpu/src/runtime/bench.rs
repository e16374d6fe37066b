//! What the GEMM benchmarks (`bench`, `bench_hopper`, the `gemm_sweep` example) share: cuBLAS run on
//! the same device buffers as the baseline and the reference, the comparison of a kernel's output
//! with it, TFLOP/s, and the result table.
//!
//! ```
//! use cute_gpu::runtime::bench::{Best, Row, print_table};
//! let mut best = Best::default();
//! for (tflops, name) in [(590.0, "128x128"), (660.0, "128x256")] {
//!     best.offer(tflops, || name.to_string());
//! }
//! let row = Row::versus("4096^3 bf16".into(), best, 600.0, Some("cuBLAS"));
//! assert_eq!((row.note.as_str(), row.ratio), ("128x256", 1.1));
//! print_table(["problem", "ours", "baseline", "ratio", "kernel"], &[row]);
//! ```

use super::baseline::BaselineGemm;
use super::{DeviceBuffer, RawBuffer, Runtime};
use crate::dtype::DType;
use crate::error::{GpuError, Result, driver};
use crate::host::{max_rel_error, to_f32};
use crate::kernel::Kernel;
use crate::kernels::gemm_sm90::HopperProblem;

/// The median of benchmark samples (the upper one of an even count; NaN-safe total order).
///
/// ```
/// use cute_gpu::runtime::bench::median;
/// assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
/// assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 3.0);
/// ```
pub fn median(samples: &[f64]) -> f64 {
    let mut v = samples.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The work of one timed sample in TFLOP: `--sample-tflop F` on the command line, else `default`.
/// Samples of a few milliseconds (3 calls of a large GEMM) mostly measure how the clock recovers from
/// the previous contender; samples of tens of milliseconds measure the steady state a training loop
/// sees (run 90, H200, 16384x8192x1024: ours / cuBLASLt best of 8 0.92-1.00 at 2 TFLOP per sample,
/// 1.04-1.07 at 20; 8192^3: 0.97-0.98 and 1.03-1.05).
pub fn sample_tflop(default: f64) -> Result<f64> {
    let args: Vec<String> = std::env::args().collect();
    let Some(i) = args.iter().position(|a| a == "--sample-tflop") else {
        return Ok(default);
    };
    match args.get(i + 1).and_then(|s| s.parse::<f64>().ok()) {
        Some(f) if f > 0.0 && f.is_finite() => Ok(f),
        _ => Err(GpuError::Config {
            kernel: "benchmark",
            reason: format!(
                "--sample-tflop takes a positive number: got {:?}",
                args.get(i + 1)
            ),
        }),
    }
}

/// Calls in one timed sample of `tflop` TFLOP when one call does `flops`: at least 3, at most 25 per
/// TFLOP (tiny calls would otherwise run for seconds).
///
/// ```
/// use cute_gpu::runtime::bench::sample_calls;
/// assert_eq!(sample_calls(20.0, 2.0 * 8192f64.powi(3)), 18); // 8192^3: 18 calls, about 25 ms
/// assert_eq!(sample_calls(2.0, 2.0 * 8192f64.powi(3)), 3);
/// assert_eq!(sample_calls(20.0, 2.0 * 64f64.powi(3)), 500);
/// ```
pub fn sample_calls(tflop: f64, flops: f64) -> usize {
    (tflop * 1e12 / flops).clamp(3.0, 25.0 * tflop) as usize
}

/// One zeroed stream-K workspace as large as the largest that `kernels` declare (their buffer `SK`,
/// [`crate::piece::stream_k`]); `None` when none does. One serves every launch on the stream.
///
/// ```no_run
/// use cute_gpu::{DType, kernels::gemm_sm90::*, runtime::{Runtime, bench::stream_k_workspace}};
/// let rt = Runtime::new(0).unwrap();
/// let c = HopperConfig { stream_k: rt.sm_count(), ..HopperConfig::large() };
/// let k = generate_hopper_gemm(&HopperProblem::padded(4096, 4096, 4096), DType::BF16, DType::BF16, &c).unwrap();
/// assert!(stream_k_workspace(&rt, &[k]).unwrap().is_some());
/// ```
pub fn stream_k_workspace(rt: &Runtime, kernels: &[Kernel]) -> Result<Option<DeviceBuffer<f32>>> {
    let bytes = kernels
        .iter()
        .flat_map(|k| k.buffers.iter().filter(|b| b.name == "SK"))
        .map(|b| b.bytes)
        .max();
    bytes.map(|b| rt.zeros::<f32>(b / 4)).transpose()
}

/// `buffers` and, for a stream-K kernel `k`, the workspace (its last buffer).
///
/// ```no_run
/// # use cute_gpu::{DType, kernels::gemm_sm90::*, runtime::{Runtime, bench::*}};
/// # let rt = Runtime::new(0).unwrap();
/// # let c = HopperConfig { stream_k: rt.sm_count(), ..HopperConfig::large() };
/// # let p = HopperProblem::padded(4096, 4096, 4096);
/// # let k = generate_hopper_gemm(&p, DType::BF16, DType::BF16, &c).unwrap();
/// let one = cute_gpu::host::from_f32(DType::BF16, 1.0);
/// let g = DeviceGemm::new(&rt, DType::BF16, p, &vec![one; p.a_len() as usize], &vec![one; p.b_len() as usize]).unwrap();
/// let ws = stream_k_workspace(&rt, std::slice::from_ref(&k)).unwrap();
/// rt.launch(&k, &with_workspace(&rt, &k, g.abd(&rt).to_vec(), &ws)).unwrap();
/// ```
pub fn with_workspace(
    rt: &Runtime,
    k: &Kernel,
    mut buffers: Vec<RawBuffer>,
    workspace: &Option<DeviceBuffer<f32>>,
) -> Vec<RawBuffer> {
    if let (true, Some(w)) = (k.buffer_names().contains(&"SK"), workspace) {
        buffers.push(rt.bind(w));
    }
    buffers
}

/// Milliseconds per call of `f` over a timed sample of `calls` calls that follows an untimed sample of
/// as many: each contender is timed in the state its own work leaves the GPU in, whatever ran before it.
/// Without the untimed sample the same kernel read 777 TFLOP/s when it followed the `mma.sync` kernel
/// (a lower-power one) and 717 when it followed a cuBLASLt one, in the same rounds (`bench_matmul
/// --stream-k-ab`, 8192³, `gpu/logs/matmul/run100/bench_matmul-ab.log`).
///
/// ```no_run
/// use cute_gpu::{kernels::copy::{CopySpec, generate_copy}, runtime::{Runtime, bench::settled_ms}};
/// let rt = Runtime::new(0).unwrap();
/// let l: cute_layout_core::Layout = "(_64,_64):(_64,_1)".parse().unwrap();
/// let k = generate_copy(&CopySpec::new(l.clone(), l, 4)).unwrap();
/// let (src, dst) = (rt.upload(&vec![1.0f32; 4096]).unwrap(), rt.zeros::<f32>(4096).unwrap());
/// let p = rt.prepare(&k, &[rt.bind(&src), rt.bind(&dst)]).unwrap();
/// let ms = settled_ms(&rt, 20, || rt.run(&p)).unwrap(); // 20 untimed calls, then 20 timed
/// assert!(ms > 0.0);
/// ```
pub fn settled_ms<F: FnMut() -> Result<()>>(rt: &Runtime, calls: usize, f: F) -> Result<f64> {
    rt.time_ms(calls, calls, f)
}

/// A cuBLAS handle on a runtime's stream.
///
/// ```no_run
/// use cute_gpu::runtime::{Runtime, bench::Cublas};
/// let rt = Runtime::new(0).unwrap();
/// let cublas = Cublas::new(&rt).unwrap(); // GpuError::LibraryMissing("libcublas") without it
/// assert!(!cublas.handle().is_null());
/// ```
pub struct Cublas {
    blas: cudarc::cublas::CudaBlas,
}

impl Cublas {
    /// Loads libcublas ([`GpuError::LibraryMissing`] without it) and creates a handle on `rt`'s stream.
    ///
    /// ```no_run
    /// use cute_gpu::{GpuError, runtime::{Runtime, bench::Cublas}};
    /// let rt = Runtime::new(0).unwrap();
    /// match Cublas::new(&rt) {
    ///     Ok(_) => println!("cuBLAS loaded"),
    ///     Err(e) => assert!(matches!(e, GpuError::LibraryMissing("libcublas") | GpuError::Driver { .. })),
    /// }
    /// ```
    pub fn new(rt: &Runtime) -> Result<Self> {
        if !crate::libs::present(&["cublas"]) {
            return Err(GpuError::LibraryMissing("libcublas"));
        }
        let blas = cudarc::cublas::CudaBlas::new(rt.stream().clone()).map_err(driver("cuBLAS"))?;
        Ok(Cublas { blas })
    }

    /// The raw handle, for [`BaselineGemm::run`].
    ///
    /// ```no_run
    /// use cute_gpu::runtime::{Runtime, bench::Cublas};
    /// let rt = Runtime::new(0).unwrap();
    /// let handle = Cublas::new(&rt).unwrap().handle();
    /// assert!(!handle.is_null());
    /// ```
    pub fn handle(&self) -> cudarc::cublas::sys::cublasHandle_t {
        *self.blas.handle()
    }
}

/// One GEMM problem on the device, 16-bit inputs and output: A `(M,K)` row-major, B `(K,N)`
/// column-major, C (zero) and D `(M,N)` row-major, with the leading dimensions of a
/// [`HopperProblem`]; once [`time_cublas`](Self::time_cublas) has run, cuBLAS's D is the reference.
///
/// ```no_run
/// use cute_gpu::{DType, kernels::gemm_sm90::HopperProblem, runtime::{Runtime, bench::DeviceGemm}};
/// let rt = Runtime::new(0).unwrap();
/// let p = HopperProblem::padded(1024, 1024, 512);
/// let one = cute_gpu::host::from_f32(DType::BF16, 1.0);
/// let mut g = DeviceGemm::new(&rt, DType::BF16, p, &vec![one; p.a_len() as usize], &vec![one; p.b_len() as usize]).unwrap();
/// let tflops = g.time_cublas(&rt, &cute_gpu::runtime::bench::Cublas::new(&rt).unwrap(), 2, 10).unwrap();
/// println!("cuBLAS: {tflops:.0} TFLOP/s");
/// assert_eq!(cute_gpu::host::to_f32(DType::BF16, g.reference[0]), 512.0); // K ones
/// ```
pub struct DeviceGemm {
    /// Input and output type (f16 or bf16).
    pub dtype: DType,
    /// Extents and leading dimensions (both operands K-major).
    pub problem: HopperProblem,
    /// A on the device.
    pub a: DeviceBuffer<u16>,
    /// B on the device.
    pub b: DeviceBuffer<u16>,
    /// C on the device (zeros), for kernels that read one.
    pub c: DeviceBuffer<u16>,
    /// D on the device, written by the kernel under test.
    pub d: DeviceBuffer<u16>,
    reference_d: DeviceBuffer<u16>,
    /// cuBLAS's D, downloaded by [`time_cublas`](Self::time_cublas).
    pub reference: Vec<u16>,
}

impl DeviceGemm {
    /// Uploads A and B (`problem.a_len()` and `problem.b_len()` elements) and allocates C, D and
    /// cuBLAS's D.
    ///
    /// ```no_run
    /// use cute_gpu::{DType, kernels::gemm_sm90::HopperProblem, runtime::{Runtime, bench::DeviceGemm}};
    /// let rt = Runtime::new(0).unwrap();
    /// let p = HopperProblem::padded(1024, 1024, 512);
    /// let one = cute_gpu::host::from_f32(DType::BF16, 1.0);
    /// let mut g = DeviceGemm::new(&rt, DType::BF16, p, &vec![one; p.a_len() as usize], &vec![one; p.b_len() as usize]).unwrap();
    /// assert_eq!((g.d.len(), g.reference.len()), (1024 * 1024, 0)); // no reference before time_cublas
    /// ```
    pub fn new(
        rt: &Runtime,
        dtype: DType,
        problem: HopperProblem,
        a: &[u16],
        b: &[u16],
    ) -> Result<Self> {
        let d_len = (problem.m * problem.ldd) as usize;
        Ok(DeviceGemm {
            dtype,
            problem,
            a: rt.upload(a)?,
            b: rt.upload(b)?,
            c: rt.zeros(d_len)?,
            d: rt.zeros(d_len)?,
            reference_d: rt.zeros(d_len)?,
            reference: Vec::new(),
        })
    }

    /// Floating-point operations of one GEMM: `2 M N K`.
    ///
    /// ```no_run
    /// # use cute_gpu::{DType, kernels::gemm_sm90::HopperProblem, runtime::{Runtime, bench::DeviceGemm}};
    /// # let rt = Runtime::new(0).unwrap();
    /// # let p = HopperProblem::padded(1024, 1024, 512);
    /// # let one = cute_gpu::host::from_f32(DType::BF16, 1.0);
    /// # let mut g = DeviceGemm::new(&rt, DType::BF16, p, &vec![one; p.a_len() as usize], &vec![one; p.b_len() as usize]).unwrap();
    /// assert_eq!(g.flops(), 2.0 * 1024.0 * 1024.0 * 512.0);
    /// ```
    pub fn flops(&self) -> f64 {
        2.0 * (self.problem.m * self.problem.n * self.problem.k) as f64
    }

    /// TFLOP/s of one GEMM taking `ms` milliseconds.
    ///
    /// ```no_run
    /// # use cute_gpu::{DType, kernels::gemm_sm90::HopperProblem, runtime::{Runtime, bench::DeviceGemm}};
    /// # let rt = Runtime::new(0).unwrap();
    /// # let p = HopperProblem::padded(1024, 1024, 512);
    /// # let one = cute_gpu::host::from_f32(DType::BF16, 1.0);
    /// # let mut g = DeviceGemm::new(&rt, DType::BF16, p, &vec![one; p.a_len() as usize], &vec![one; p.b_len() as usize]).unwrap();
    /// assert_eq!(g.tflops(1.0), g.flops() / 1e9); // 1 ms
    /// ```
    pub fn tflops(&self, ms: f64) -> f64 {
        self.flops() / ms / 1e9
    }

    /// The buffers of a kernel taking (A, B, D): the SM90 GEMM.
    ///
    /// ```no_run
    /// # use cute_gpu::{DType, kernels::gemm_sm90::HopperProblem, runtime::{Runtime, bench::DeviceGemm}};
    /// # let rt = Runtime::new(0).unwrap();
    /// # let p = HopperProblem::padded(1024, 1024, 512);
    /// # let one = cute_gpu::host::from_f32(DType::BF16, 1.0);
    /// # let mut g = DeviceGemm::new(&rt, DType::BF16, p, &vec![one; p.a_len() as usize], &vec![one; p.b_len() as usize]).unwrap();
    /// use cute_gpu::kernels::gemm_sm90::{HopperConfig, generate_hopper_gemm};
    /// let k = generate_hopper_gemm(&p, DType::BF16, DType::BF16, &HopperConfig::default()).unwrap();
    /// rt.launch(&k, &g.abd(&rt)).unwrap();
    /// ```
    pub fn abd(&self, rt: &Runtime) -> [RawBuffer; 3] {
        [rt.bind(&self.a), rt.bind(&self.b), rt.bind(&self.d)]
    }

    /// The buffers of a kernel taking (A, B, C, D): the SM80 GEMM.
    ///
    /// ```no_run
    /// # use cute_gpu::{DType, kernels::gemm_sm90::HopperProblem, runtime::{Runtime, bench::DeviceGemm}};
    /// # let rt = Runtime::new(0).unwrap();
    /// # let p = HopperProblem::padded(1024, 1024, 512);
    /// # let one = cute_gpu::host::from_f32(DType::BF16, 1.0);
    /// # let mut g = DeviceGemm::new(&rt, DType::BF16, p, &vec![one; p.a_len() as usize], &vec![one; p.b_len() as usize]).unwrap();
    /// use cute_gpu::configs::{sm80_spec, sm80_two_ctas};
    /// let k = cute_gpu::kernels::gemm_sm80::generate_gemm(&sm80_spec(&p, DType::BF16, DType::BF16, sm80_two_ctas()).unwrap()).unwrap();
    /// rt.launch(&k, &g.abcd(&rt)).unwrap();
    /// ```
    pub fn abcd(&self, rt: &Runtime) -> [RawBuffer; 4] {
        [
            rt.bind(&self.a),
            rt.bind(&self.b),
            rt.bind(&self.c),
            rt.bind(&self.d),
        ]
    }

    /// Times `cublasGemmEx` on these buffers (`warmup` runs, then the mean of `iters`), keeps its D as
    /// the reference and returns its TFLOP/s.
    ///
    /// ```no_run
    /// # use cute_gpu::{DType, kernels::gemm_sm90::HopperProblem, runtime::{Runtime, bench::DeviceGemm}};
    /// # let rt = Runtime::new(0).unwrap();
    /// # let p = HopperProblem::padded(1024, 1024, 512);
    /// # let one = cute_gpu::host::from_f32(DType::BF16, 1.0);
    /// # let mut g = DeviceGemm::new(&rt, DType::BF16, p, &vec![one; p.a_len() as usize], &vec![one; p.b_len() as usize]).unwrap();
    /// let cublas = cute_gpu::runtime::bench::Cublas::new(&rt).unwrap();
    /// let tflops = g.time_cublas(&rt, &cublas, 3, 20).unwrap();
    /// assert!(tflops > 0.0 && g.reference.len() == 1024 * 1024);
    /// ```
    pub fn time_cublas(
        &mut self,
        rt: &Runtime,
        cublas: &Cublas,
        warmup: usize,
        iters: usize,
    ) -> Result<f64> {
        let p = &self.problem;
        let baseline = BaselineGemm {
            dtype: self.dtype,
            m: p.m,
            n: p.n,
            k: p.k,
            a: (rt.bind(&self.a).ptr(), p.lda),
            b: (rt.bind(&self.b).ptr(), p.ldb),
            d: (rt.bind(&self.reference_d).ptr(), p.ldd),
        };
        let handle = *cublas.blas.handle();
        // SAFETY: the buffers hold the operands' sizes and outlive the timed calls (time_ms syncs).
        let ms = rt.time_ms(warmup, iters, || unsafe { baseline.run(handle) })?;
        self.reference = rt.download(&self.reference_d)?;
        Ok(self.tflops(ms))
    }

    /// Offsets in D of the points compared with the reference: every 7th row, every 13th column.
    ///
    /// ```no_run
    /// # use cute_gpu::{DType, kernels::gemm_sm90::HopperProblem, runtime::{Runtime, bench::DeviceGemm}};
    /// # let rt = Runtime::new(0).unwrap();
    /// # let p = HopperProblem::padded(1024, 1024, 512);
    /// # let one = cute_gpu::host::from_f32(DType::BF16, 1.0);
    /// # let mut g = DeviceGemm::new(&rt, DType::BF16, p, &vec![one; p.a_len() as usize], &vec![one; p.b_len() as usize]).unwrap();
    /// let s: Vec<usize> = g.sampled().take(3).collect();
    /// assert_eq!(s, [0, 13, 26]);
    /// assert_eq!(g.sampled().count(), 1024usize.div_ceil(7) * 1024usize.div_ceil(13));
    /// ```
    pub fn sampled(&self) -> impl Iterator<Item = usize> + use<> {
        let (n, ldd) = (self.problem.n, self.problem.ldd);
        (0..self.problem.m)
            .step_by(7)
            .flat_map(move |i| (0..n).step_by(13).map(move |j| (i * ldd + j) as usize))
    }

    /// Downloads D and returns its largest relative difference from the reference at the
    /// [`sampled`](Self::sampled) points (both accumulate in f32; outputs rounded to the 16-bit type).
    ///
    /// ```no_run
    /// # use cute_gpu::{DType, kernels::gemm_sm90::HopperProblem, runtime::{Runtime, bench::DeviceGemm}};
    /// # let rt = Runtime::new(0).unwrap();
    /// # let p = HopperProblem::padded(1024, 1024, 512);
    /// # let one = cute_gpu::host::from_f32(DType::BF16, 1.0);
    /// # let mut g = DeviceGemm::new(&rt, DType::BF16, p, &vec![one; p.a_len() as usize], &vec![one; p.b_len() as usize]).unwrap();
    /// # use cute_gpu::{configs::sm90_persistent_tma_store, kernels::gemm_sm90::generate_hopper_gemm};
    /// g.time_cublas(&rt, &cute_gpu::runtime::bench::Cublas::new(&rt).unwrap(), 1, 1).unwrap();
    /// let k = generate_hopper_gemm(&p, DType::BF16, DType::BF16, &sm90_persistent_tma_store()).unwrap();
    /// rt.launch(&k, &g.abd(&rt)).unwrap();
    /// assert!(g.max_rel_diff(&rt).unwrap() < 1e-2);
    /// ```
    pub fn max_rel_diff(&self, rt: &Runtime) -> Result<f32> {
        let ours = rt.download(&self.d)?;
        let value = |h: u16| to_f32(self.dtype, h);
        Ok(max_rel_error(
            self.sampled()
                .map(|o| (value(ours[o]), value(self.reference[o]))),
        ))
    }

    /// Downloads D and counts the [`sampled`](Self::sampled) points that differ from the reference.
    ///
    /// ```no_run
    /// # use cute_gpu::{DType, kernels::gemm_sm90::HopperProblem, runtime::{Runtime, bench::DeviceGemm}};
    /// # let rt = Runtime::new(0).unwrap();
    /// # let p = HopperProblem::padded(1024, 1024, 512);
    /// # let one = cute_gpu::host::from_f32(DType::BF16, 1.0);
    /// # let mut g = DeviceGemm::new(&rt, DType::BF16, p, &vec![one; p.a_len() as usize], &vec![one; p.b_len() as usize]).unwrap();
    /// g.time_cublas(&rt, &cute_gpu::runtime::bench::Cublas::new(&rt).unwrap(), 1, 1).unwrap();
    /// assert_eq!(g.differing(&rt).unwrap(), g.sampled().count()); // D is still zero, the reference 512
    /// ```
    pub fn differing(&self, rt: &Runtime) -> Result<usize> {
        let ours = rt.download(&self.d)?;
        Ok(self
            .sampled()
            .filter(|&o| ours[o] != self.reference[o])
            .count())
    }

    /// Downloads D and says whether all of it equals the reference.
    ///
    /// ```no_run
    /// # use cute_gpu::{DType, kernels::gemm_sm90::HopperProblem, runtime::{Runtime, bench::DeviceGemm}};
    /// # let rt = Runtime::new(0).unwrap();
    /// # let p = HopperProblem::padded(1024, 1024, 512);
    /// # let one = cute_gpu::host::from_f32(DType::BF16, 1.0);
    /// # let mut g = DeviceGemm::new(&rt, DType::BF16, p, &vec![one; p.a_len() as usize], &vec![one; p.b_len() as usize]).unwrap();
    /// g.time_cublas(&rt, &cute_gpu::runtime::bench::Cublas::new(&rt).unwrap(), 1, 1).unwrap();
    /// assert!(!g.equals_reference(&rt).unwrap()); // nothing has written D yet
    /// ```
    pub fn equals_reference(&self, rt: &Runtime) -> Result<bool> {
        Ok(rt.download(&self.d)? == self.reference)
    }
}

/// The largest figure offered so far and the note naming what achieved it.
///
/// ```
/// use cute_gpu::runtime::bench::Best;
/// let b = Best::default();
/// assert_eq!((b.value, b.note.as_str()), (0.0, ""));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Best {
    /// The figure (0 until one is offered).
    pub value: f64,
    /// What achieved it.
    pub note: String,
}

impl Best {
    /// Keeps `value` (and the note, made only then) if it beats the best so far.
    ///
    /// ```
    /// use cute_gpu::runtime::bench::Best;
    /// let mut b = Best::default();
    /// b.offer(610.0, || "128x256".into());
    /// b.offer(580.0, || unreachable!("a smaller figure makes no note"));
    /// assert_eq!((b.value, b.note.as_str()), (610.0, "128x256"));
    /// ```
    pub fn offer(&mut self, value: f64, note: impl FnOnce() -> String) {
        if value > self.value {
            *self = Best {
                value,
                note: note(),
            };
        }
    }
}

/// One row of a benchmark table: our best against a baseline.
///
/// ```
/// use cute_gpu::runtime::bench::{Best, Row};
/// let best = Best { value: 640.0, note: "pingpong".into() };
/// let r = Row::versus("4096^3 bf16".into(), best, 800.0, None);
/// assert_eq!((r.ours.as_str(), r.baseline.as_str(), r.ratio), ("640", "800", 0.8));
/// ```
#[derive(Clone, Debug)]
pub struct Row {
    /// What was measured.
    pub what: String,
    /// Our figure, formatted.
    pub ours: String,
    /// The baseline's figure, formatted.
    pub baseline: String,
    /// Ours over the baseline.
    pub ratio: f64,
    /// Which kernel.
    pub note: String,
}

impl Row {
    /// Our best against a baseline figure, both without decimals; the baseline followed by
    /// ` (name)` when it has a name.
    ///
    /// ```
    /// use cute_gpu::runtime::bench::{Best, Row};
    /// let r = Row::versus("gemm".into(), Best { value: 700.4, note: "c2".into() }, 650.6, Some("cuBLASLt"));
    /// assert_eq!((r.ours.as_str(), r.baseline.as_str(), r.note.as_str()), ("700", "651 (cuBLASLt)", "c2"));
    /// ```
    pub fn versus(what: String, best: Best, baseline: f64, baseline_name: Option<&str>) -> Row {
        Row {
            what,
            ours: format!("{:.0}", best.value),
            baseline: match baseline_name {
                Some(name) => format!("{baseline:.0} ({name})"),
                None => format!("{baseline:.0}"),
            },
            ratio: best.value / baseline,
            note: best.note,
        }
    }
}

/// Prints a Markdown table after a blank line: the header, the separator, one line per row (ratio
/// with two decimals).
///
/// ```
/// use cute_gpu::runtime::bench::{Best, Row, print_table};
/// let row = Row::versus("4096^3".into(), Best { value: 700.0, note: "c2".into() }, 650.0, None);
/// print_table(["problem", "TFLOP/s", "cuBLAS", "ratio", "kernel"], &[row]);
/// // | problem | TFLOP/s | cuBLAS | ratio | kernel |
/// // | --- | --- | --- | --- | --- |
/// // | 4096^3 | 700 | 650 | 1.08 | c2 |
/// ```
pub fn print_table(header: [&str; 5], rows: &[Row]) {
    println!("\n| {} |\n|{}", header.join(" | "), " --- |".repeat(5));
    for r in rows {
        println!(
            "| {} | {} | {} | {:.2} | {} |",
            r.what, r.ours, r.baseline, r.ratio, r.note
        );
    }
}
