//! What the GEMM benchmarks (`bench`, `bench_hopper`, the `gemm_sweep` example) share: cuBLAS run on
//! the same device buffers as the baseline and the reference, the comparison of a kernel's output
//! with it, TFLOP/s, and the result table.

use super::baseline::BaselineGemm;
use super::{DeviceBuffer, RawBuffer, Runtime};
use crate::dtype::DType;
use crate::error::{GpuError, Result, driver};
use crate::host::{max_rel_error, to_f32};
use crate::kernels::gemm_sm90::HopperProblem;

/// A cuBLAS handle on a runtime's stream.
pub struct Cublas {
    blas: cudarc::cublas::CudaBlas,
}

impl Cublas {
    /// Loads libcublas ([`GpuError::LibraryMissing`] without it) and creates a handle on `rt`'s stream.
    pub fn new(rt: &Runtime) -> Result<Self> {
        if !crate::libs::present(&["cublas"]) {
            return Err(GpuError::LibraryMissing("libcublas"));
        }
        let blas = cudarc::cublas::CudaBlas::new(rt.stream().clone()).map_err(driver("cuBLAS"))?;
        Ok(Cublas { blas })
    }

    /// The raw handle, for [`BaselineGemm::run`].
    pub fn handle(&self) -> cudarc::cublas::sys::cublasHandle_t {
        *self.blas.handle()
    }
}

/// One GEMM problem on the device, 16-bit inputs and output: A `(M,K)` row-major, B `(K,N)`
/// column-major, C (zero) and D `(M,N)` row-major, with the leading dimensions of a
/// [`HopperProblem`]; once [`time_cublas`](Self::time_cublas) has run, cuBLAS's D is the reference.
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
    pub fn flops(&self) -> f64 {
        2.0 * (self.problem.m * self.problem.n * self.problem.k) as f64
    }

    /// TFLOP/s of one GEMM taking `ms` milliseconds.
    pub fn tflops(&self, ms: f64) -> f64 {
        self.flops() / ms / 1e9
    }

    /// The buffers of a kernel taking (A, B, D): the SM90 GEMM.
    pub fn abd(&self, rt: &Runtime) -> [RawBuffer; 3] {
        [rt.bind(&self.a), rt.bind(&self.b), rt.bind(&self.d)]
    }

    /// The buffers of a kernel taking (A, B, C, D): the SM80 GEMM.
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
    pub fn sampled(&self) -> impl Iterator<Item = usize> + use<> {
        let (n, ldd) = (self.problem.n, self.problem.ldd);
        (0..self.problem.m)
            .step_by(7)
            .flat_map(move |i| (0..n).step_by(13).map(move |j| (i * ldd + j) as usize))
    }

    /// Downloads D and returns its largest relative difference from the reference at the
    /// [`sampled`](Self::sampled) points (both accumulate in f32; outputs rounded to the 16-bit type).
    pub fn max_rel_diff(&self, rt: &Runtime) -> Result<f32> {
        let ours = rt.download(&self.d)?;
        let value = |h: u16| to_f32(self.dtype, h);
        Ok(max_rel_error(
            self.sampled()
                .map(|o| (value(ours[o]), value(self.reference[o]))),
        ))
    }

    /// Downloads D and counts the [`sampled`](Self::sampled) points that differ from the reference.
    pub fn differing(&self, rt: &Runtime) -> Result<usize> {
        let ours = rt.download(&self.d)?;
        Ok(self
            .sampled()
            .filter(|&o| ours[o] != self.reference[o])
            .count())
    }

    /// Downloads D and says whether all of it equals the reference.
    pub fn equals_reference(&self, rt: &Runtime) -> Result<bool> {
        Ok(rt.download(&self.d)? == self.reference)
    }
}

/// The largest figure offered so far and the note naming what achieved it.
#[derive(Clone, Debug, Default)]
pub struct Best {
    /// The figure (0 until one is offered).
    pub value: f64,
    /// What achieved it.
    pub note: String,
}

impl Best {
    /// Keeps `value` (and the note, made only then) if it beats the best so far.
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
pub fn print_table(header: [&str; 5], rows: &[Row]) {
    println!("\n| {} |\n|{}", header.join(" | "), " --- |".repeat(5));
    for r in rows {
        println!(
            "| {} | {} | {} | {:.2} | {} |",
            r.what, r.ours, r.baseline, r.ratio, r.note
        );
    }
}
