//! Which kernel runs a GEMM request, decided from the operands' CuTe layouts (no GPU needed): validation
//! with errors that name the values, normalization (a column-major D is computed as `Dᵀ = Bᵀ·Aᵀ`; extents
//! and non-unit strides become dynamic so one compiled kernel serves every size of an alignment class), and
//! the heuristic: the SM90 wgmma + TMA kernel on sm_90, the SM80 `mma.sync` kernel elsewhere or when the
//! epilogue needs C, the fallback kernel when no tensor-core path can take the operands.
//!
//! ```
//! use cute_gpu::{DType, matmul::plan::{Request, plan}};
//! let l = |s: &str| s.parse::<cute_layout_core::Layout>().unwrap();
//! // lda = 100 is not a multiple of 8: no 16-byte cp.async or TMA, the fallback kernel
//! let (a, b, d) = (l("(100,100):(100,_1)"), l("(100,64):(64,_1)"), l("(100,64):(64,_1)"));
//! let r = Request { a: &a, b: &b, c: None, d: &d, input: DType::F16, output: DType::F32, alpha: 1.0, beta: 0.0,
//!     arch: "sm_90a", aligned: [true; 4], sm_count: 132, op: Default::default(),
//!     decomposition: Default::default() };
//! assert_eq!(plan(&r).unwrap().unwrap().path, "simt");
//! ```

use crate::dtype::{DType, Major};
use crate::emit::flat_modes;
use crate::error::{GpuError, Result};
use crate::kernel::Kernel;
use crate::kernels::gemm_simt::generate_gemm_simt;
use crate::kernels::gemm_sm80::{GemmConfig, GemmOptions, GemmSpec, generate_gemm_with};
use crate::kernels::gemm_sm90::{
    Fused, HopperBatch, HopperConfig, HopperProblem, generate_hopper_gemm_with,
};
use crate::kernels::splitk_reduce::{SplitKReduce, generate_splitk_reduce};
use crate::piece::epilogue_op::{BiasKind, EpilogueOp};
use crate::piece::fp8_scaling::Scaling;
use cute_layout_core::{Int, IntTuple, Layout, cosize};

mod decompose;
mod tiles;

pub use decompose::*;
pub use tiles::*;

/// A GEMM request: `D = alpha * A·B + beta * C` over layouts `A (M,K[,L])`, `B (K,N[,L])`,
/// `D (M,N[,L])`, optional `C` with D's shape; `L` is the batch.
///
/// ```
/// use cute_gpu::{DType, matmul::plan::*};
/// let l = |s: &str| s.parse::<cute_layout_core::Layout>().unwrap();
/// let (a, b, d) = (l("(512,256):(256,_1)"), l("(256,1024):(_1,256)"), l("(512,1024):(1024,_1)"));
/// let r = Request {
///     a: &a, b: &b, c: None, d: &d, input: DType::BF16, output: DType::BF16, alpha: 1.0, beta: 0.0,
///     arch: "sm_90a", aligned: [true; 4], sm_count: 132, op: Default::default(),
///     decomposition: Default::default(),
/// };
/// assert_eq!(plan(&r).unwrap().unwrap().path, "sm90");
/// let sm80 = Request { arch: "sm_80", ..r.clone() };
/// assert_eq!(plan(&sm80).unwrap().unwrap().path, "sm80");
/// ```
#[derive(Clone, Debug)]
pub struct Request<'a> {
    /// A.
    pub a: &'a Layout,
    /// B.
    pub b: &'a Layout,
    /// C (read when beta != 0; when absent, C is D: `D = alpha*A·B + beta*D`).
    pub c: Option<&'a Layout>,
    /// D.
    pub d: &'a Layout,
    /// Type of A and B.
    pub input: DType,
    /// Type of C and D.
    pub output: DType,
    /// alpha.
    pub alpha: f32,
    /// beta.
    pub beta: f32,
    /// The device architecture (`sm_90a`, `sm_80`, ...).
    pub arch: &'a str,
    /// Whether each base pointer (A, B, C, D) is 16-byte aligned.
    pub aligned: [bool; 4],
    /// Streaming multiprocessors of the device (tile shapes are chosen to fill them).
    pub sm_count: u32,
    /// Fused bias (per row or column of D) and activation (`scale` is decided by the plan).
    pub op: EpilogueOp,
    /// How a persistent SM90 kernel divides the work among its CTAs.
    pub decomposition: Decomposition,
}

/// How a persistent SM90 GEMM divides its work among the CTAs (as CUTLASS's decomposition modes).
///
/// ```
/// use cute_gpu::matmul::plan::Decomposition;
/// assert_eq!(Decomposition::default(), Decomposition::Heuristic);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Decomposition {
    /// The heuristic's choice ([`sm90_stream_k`]).
    #[default]
    Heuristic,
    /// Whole tiles per CTA (data-parallel).
    Tiles,
    /// Stream-K ([`crate::piece::stream_k`]) wherever the kernel allows it.
    StreamK,
    /// The heuristic's choice, but split-K's slices summed by a second kernel ([`generate_splitk_reduce`])
    /// instead of in the GEMM ([`crate::piece::split_sum`]): for comparison.
    SplitKReduceKernel,
}

/// One batch's problem in rank-2 layouts, after normalization (D row-major; roles of A and B swapped and
/// transposed when D was column-major).
///
/// ```
/// # use cute_gpu::{DType, matmul::plan::*};
/// # let l = |s: &str| s.parse::<cute_layout_core::Layout>().unwrap();
/// # let (a, b, d) = (l("(512,256):(256,_1)"), l("(256,1024):(_1,256)"), l("(512,1024):(_1,512)"));
/// # let r = Request {
/// #     a: &a, b: &b, c: None, d: &d, input: DType::BF16, output: DType::BF16, alpha: 1.0, beta: 0.0,
/// #     arch: "sm_90a", aligned: [true; 4], sm_count: 132, op: Default::default(),
/// #     decomposition: Default::default(),
/// # };
/// // D column-major: computed as Dᵀ (1024,512) row-major = Bᵀ·Aᵀ
/// let batch = plan(&r).unwrap().unwrap().batch;
/// assert!(batch.swapped);
/// assert_eq!(batch.d.to_string(), "(1024,512):(512,_1)");
/// ```
#[derive(Clone, Debug)]
pub struct Batch {
    /// A `(M,K)`, B `(K,N)`, C and D `(M,N)`.
    pub a: Layout,
    /// B.
    pub b: Layout,
    /// D (and C).
    pub d: Layout,
    /// Whether the buffers of A and B were swapped (D was column-major).
    pub swapped: bool,
}

/// The kernel a request runs and how often.
///
/// ```
/// # use cute_gpu::{DType, matmul::plan::*};
/// # let l = |s: &str| s.parse::<cute_layout_core::Layout>().unwrap();
/// # let (a, b, d) = (l("(512,256):(256,_1)"), l("(256,1024):(_1,256)"), l("(512,1024):(1024,_1)"));
/// # let r = Request {
/// #     a: &a, b: &b, c: None, d: &d, input: DType::BF16, output: DType::BF16, alpha: 1.0, beta: 0.0,
/// #     arch: "sm_90a", aligned: [true; 4], sm_count: 132, op: Default::default(),
/// #     decomposition: Default::default(),
/// # };
/// let p = plan(&r).unwrap().unwrap();
/// assert_eq!((p.path, p.batches, p.batch_strides), ("sm90", 1, [0; 4]));
/// assert_eq!(p.batch.a.to_string(), "(512,256):(256,_1)"); // extents and ld dynamic, unit stride static
/// ```
#[derive(Clone, Debug)]
pub struct Plan {
    /// The kernel, generated for one batch.
    pub kernel: Kernel,
    /// Which path: `sm90`, `sm80` or `simt`.
    pub path: &'static str,
    /// The normalized batch problem.
    pub batch: Batch,
    /// Batches, and each operand's batch stride in elements (A, B, C, D of the request).
    pub batches: i64,
    /// Element offsets between batches of A, B, C, D.
    pub batch_strides: [i64; 4],
    /// Launches per call: 1 when the kernel runs every batch (the SM90 kernel's strided batch), else one
    /// per batch.
    pub launches: i64,
    /// Split-K: the kernel's batches are K slices, their f32 products summed through a workspace.
    pub split_k: Option<SplitK>,
}

impl Plan {
    /// The plan's identity (the autotuner records it): the kernel's name, with the slice count of a
    /// split-K plan (one kernel runs any number of slices; K per slice is a parameter).
    ///
    /// ```
    /// # use cute_gpu::{DType, matmul::plan::*};
    /// # let l = |s: &str| s.parse::<cute_layout_core::Layout>().unwrap();
    /// let (a, b, d) = (l("(1024,65536):(65536,_1)"), l("(65536,1024):(_1,65536)"), l("(1024,1024):(1024,_1)"));
    /// # let r = Request {
    /// #     a: &a, b: &b, c: None, d: &d, input: DType::BF16, output: DType::BF16, alpha: 1.0, beta: 0.0,
    /// #     arch: "sm_90a", aligned: [true; 4], sm_count: 132, op: Default::default(),
    /// #     decomposition: Default::default(),
    /// # };
    /// let p = plan(&r).unwrap().unwrap();
    /// assert_eq!(p.id(), format!("{}/split4", p.kernel.name));
    /// ```
    pub fn id(&self) -> String {
        identity(&self.kernel, self.split_k.as_ref())
    }
}

fn identity(kernel: &Kernel, split: Option<&SplitK>) -> String {
    match split {
        Some(s) => format!("{}/split{}", kernel.name, s.splits),
        None => kernel.name.clone(),
    }
}

/// A split-K plan's slices and the f32 workspace that carries their products: the GEMM's buffer `W`
/// (summed in the GEMM, [`crate::piece::split_sum`]), or its `D` and the second launch's `W`.
#[derive(Clone, Debug)]
pub struct SplitK {
    /// K slices.
    pub splits: i64,
    /// The reduction kernel ([`generate_splitk_reduce`]) of a plan in two launches; `None` when the
    /// GEMM sums the slices itself.
    pub reduce: Option<Kernel>,
    /// f32 elements of the workspace.
    pub workspace_elems: i64,
}

/// The heuristic's choice for one request: a kernel, its path, whether it runs every batch in one
/// launch, and its split-K reduction.
struct Choice {
    kernel: Kernel,
    path: &'static str,
    all_batches: bool,
    split_k: Option<SplitK>,
    /// The batch the kernel computes when it is not the normalized one (a decode-like GEMM transposed).
    batch: Option<Batch>,
}

impl Choice {
    fn of(kernel: Kernel, path: &'static str) -> Choice {
        Choice {
            kernel,
            path,
            all_batches: false,
            split_k: None,
            batch: None,
        }
    }

    fn into_plan(self, batch: &Batch, batches: i64, batch_strides: [i64; 4]) -> Plan {
        Plan {
            launches: if self.all_batches { 1 } else { batches },
            kernel: self.kernel,
            path: self.path,
            batch: self.batch.unwrap_or_else(|| batch.clone()),
            batches,
            batch_strides,
            split_k: self.split_k,
        }
    }
}

fn bad<T>(reason: String) -> Result<T> {
    Err(GpuError::Config {
        kernel: "matmul",
        reason,
    })
}

/// A buffer as the checks see it: name, device address, bytes, and the bytes its layout spans.
///
/// ```
/// use cute_gpu::matmul::plan::Span;
/// let a = Span::new("A", 0x1000, 8192, &"(32,32):(64,_1)".parse().unwrap(), 2).unwrap();
/// assert_eq!(a.needed, (31 * 64 + 31 + 1) * 2); // cosize 2016 of 2-byte elements
/// ```
#[derive(Clone, Debug)]
pub struct Span {
    /// `A`, `B`, `C` or `D`.
    pub name: &'static str,
    /// Device address.
    pub ptr: u64,
    /// Bytes of the buffer.
    pub bytes: usize,
    /// Bytes the layout spans (`cosize * element size`).
    pub needed: usize,
}

impl Span {
    /// The span of `layout` (elements of `elem_bytes`) in a buffer of `bytes` at `ptr`.
    ///
    /// ```
    /// use cute_gpu::matmul::plan::Span;
    /// let d = Span::new("D", 0x2000, 4096, &"(32,32):(32,_1)".parse().unwrap(), 4).unwrap();
    /// assert_eq!((d.name, d.ptr, d.bytes, d.needed), ("D", 0x2000, 4096, 4096));
    /// ```
    pub fn new(
        name: &'static str,
        ptr: u64,
        bytes: usize,
        layout: &Layout,
        elem_bytes: usize,
    ) -> Result<Span> {
        Ok(Span {
            name,
            ptr,
            bytes,
            needed: Span::needed_bytes(layout, elem_bytes)?,
        })
    }

    /// Bytes a tensor of `layout` spans: `cosize * elem_bytes`.
    ///
    /// ```
    /// use cute_gpu::matmul::plan::Span;
    /// let l = "(128,64):(_1,256)".parse().unwrap(); // column-major, ld 256
    /// assert_eq!(Span::needed_bytes(&l, 4).unwrap(), (127 + 63 * 256 + 1) * 4);
    /// ```
    pub fn needed_bytes(layout: &Layout, elem_bytes: usize) -> Result<usize> {
        let needed = usize::try_from(cosize(layout)?.value.max(0)).unwrap_or(usize::MAX);
        Ok(needed.saturating_mul(elem_bytes))
    }
}

/// Every buffer holds its layout's span; D overlaps no input (C may be D itself only through `c = None`).
///
/// ```
/// use cute_gpu::{GpuError, matmul::plan::{Span, check_spans}};
/// let span = |name, ptr, bytes| Span { name, ptr, bytes, needed: 4096 };
/// assert!(check_spans(&[span("A", 0, 4096), span("D", 4096, 4096)]).is_ok());
/// assert!(matches!(check_spans(&[span("A", 0, 4000), span("D", 4096, 4096)]), Err(GpuError::BufferTooSmall { .. })));
/// assert!(check_spans(&[span("A", 0, 4096), span("D", 2048, 4096)]).is_err()); // D overlaps A
/// ```
pub fn check_spans(spans: &[Span]) -> Result<()> {
    for s in spans {
        if s.bytes < s.needed {
            return Err(GpuError::BufferTooSmall {
                arg: s.name.into(),
                bytes: s.bytes,
                needed: s.needed,
            });
        }
    }
    let d = spans.last().ok_or_else(|| GpuError::Config {
        kernel: "matmul",
        reason: "no output".into(),
    })?;
    for s in &spans[..spans.len() - 1] {
        let overlap = s.ptr < d.ptr + d.needed as u64 && d.ptr < s.ptr + s.needed as u64;
        if overlap && s.needed > 0 && d.needed > 0 {
            return Err(GpuError::Config {
                kernel: "matmul",
                reason: format!(
                    "D [{:#x}, +{} B) overlaps {} [{:#x}, +{} B): the output must not alias an input",
                    d.ptr, d.needed, s.name, s.ptr, s.needed
                ),
            });
        }
    }
    Ok(())
}

/// `(shape, stride)` of each flat mode, rank 2 or 3 (a third mode is the batch).
fn modes(l: &Layout, what: &str) -> Result<Vec<(i64, i64)>> {
    let m = flat_modes(l)?;
    if !(2..=3).contains(&m.len()) {
        return bad(format!(
            "{what} {l} must have rank 2 (rows, columns) or 3 (with a batch mode)"
        ));
    }
    Ok(m.iter().map(|(s, d)| (s.value, d.value)).collect())
}

/// A rank-2 layout with dynamic extents, a static `_1` where the stride is 1, dynamic strides elsewhere.
fn normalized(shape: [i64; 2], stride: [i64; 2]) -> Result<Layout> {
    let st = |d: i64| if d == 1 { Int::s(1) } else { Int::d(d) };
    Ok(Layout::new(
        IntTuple::tuple(vec![IntTuple::d(shape[0]), IntTuple::d(shape[1])]),
        IntTuple::tuple(vec![
            IntTuple::Int(st(stride[0])),
            IntTuple::Int(st(stride[1])),
        ]),
    )?)
}

/// The shapes of A, B, D (and C) must agree: `(M,K) x (K,N) -> (M,N)`, with equal batch counts.
fn check_shapes(r: &Request, a: &[(i64, i64)], b: &[(i64, i64)], d: &[(i64, i64)]) -> Result<i64> {
    let batch = |m: &[(i64, i64)]| m.get(2).map_or(1, |x| x.0);
    let (m, k, n) = (a[0].0, a[1].0, b[1].0);
    if b[0].0 != k || d[0].0 != m || d[1].0 != n || batch(a) != batch(d) || batch(b) != batch(d) {
        return bad(format!(
            "shapes do not agree: A {} is (M,K), B {} must be (K,N), D {} must be (M,N), same batch",
            r.a, r.b, r.d
        ));
    }
    if let Some(c) = r.c {
        let cm = modes(c, "C")?;
        if cm.iter().map(|x| x.0).ne(d.iter().map(|x| x.0)) {
            return bad(format!("C {c} must have D's shape {}", r.d));
        }
    }
    if a.iter().chain(b).chain(d).any(|x| x.0 < 0) {
        return bad(format!("negative extent in A {} B {} D {}", r.a, r.b, r.d));
    }
    Ok(batch(d))
}

/// Plans `r`: `Ok(None)` when there is nothing to compute (M, N or the batch is 0).
///
/// ```
/// # use cute_gpu::{DType, matmul::plan::*};
/// # let l = |s: &str| s.parse::<cute_layout_core::Layout>().unwrap();
/// # let (a, b, d) = (l("(512,256):(256,_1)"), l("(256,1024):(_1,256)"), l("(512,1024):(1024,_1)"));
/// # let r = Request {
/// #     a: &a, b: &b, c: None, d: &d, input: DType::BF16, output: DType::BF16, alpha: 1.0, beta: 0.0,
/// #     arch: "sm_90a", aligned: [true; 4], sm_count: 132, op: Default::default(),
/// #     decomposition: Default::default(),
/// # };
/// let p = plan(&r).unwrap().unwrap();
/// assert!(p.kernel.source.contains("wgmma.mma_async"));
/// let empty = l("(0,1024):(1024,_1)");
/// assert!(plan(&Request { d: &empty, a: &l("(0,256):(256,_1)"), ..r }).unwrap().is_none());
/// ```
pub fn plan(r: &Request) -> Result<Option<Plan>> {
    let Some((batch, batches, batch_strides)) = normalize(r)? else {
        return Ok(None);
    };
    let choice = choose(r, &batch, batches, batch_strides)?;
    Ok(Some(choice.into_plan(&batch, batches, batch_strides)))
}

/// Every kernel the heuristic chooses among for `r`, its own choice first (the autotuner times them):
/// the SM90 tile candidates that fit, the SM80 configurations, or the fallback kernel alone.
///
/// ```
/// # use cute_gpu::{DType, matmul::plan::*};
/// # let l = |s: &str| s.parse::<cute_layout_core::Layout>().unwrap();
/// # let (a, b, d) = (l("(512,256):(256,_1)"), l("(256,1024):(_1,256)"), l("(512,1024):(1024,_1)"));
/// # let r = Request {
/// #     a: &a, b: &b, c: None, d: &d, input: DType::BF16, output: DType::BF16, alpha: 1.0, beta: 0.0,
/// #     arch: "sm_90a", aligned: [true; 4], sm_count: 132, op: Default::default(),
/// #     decomposition: Default::default(),
/// # };
/// let all = alternatives(&r).unwrap();
/// assert_eq!(all[0].id(), plan(&r).unwrap().unwrap().id()); // the heuristic's choice first
/// assert!(all.len() > 1 && all.iter().any(|p| p.path == "sm80"));
/// ```
pub fn alternatives(r: &Request) -> Result<Vec<Plan>> {
    let Some((batch, batches, batch_strides)) = normalize(r)? else {
        return Ok(Vec::new());
    };
    let first = choose(r, &batch, batches, batch_strides)?;
    let path = first.path;
    let mut kernels = vec![first];
    if path != "simt" {
        let op = oriented(r.op, batch.swapped);
        if path == "sm90" {
            let wide = HopperConfig::pingpong_wide();
            let d = flat_modes(&batch.d)?;
            let (m, n) = (d[0].0.value, d[1].0.value);
            // 2-CTA clusters with B multicast (the heuristic's for 128x256 over more than one wave,
            // [`sm90_cluster`]); the tuner tries both tiles with and without them
            // ping-pong 128x128 with the TMA-store epilogue: one tile's epilogue under the other's
            // mainloop without 128x192's ragged edge on 1024-wide outputs
            let narrow = HopperConfig::pingpong_tma_store();
            let clustered =
                [HopperConfig::large(), wide, narrow].map(|c| HopperConfig { cluster: 2, ..c });
            for config in sm90_candidates(|_, _| true)
                .into_iter()
                .map(|c| c.0)
                .chain([wide, narrow])
            {
                let bs = (batches, batch_strides);
                kernels.extend(sm90_kernel_with(r, &batch, op, config, bs));
                // split-K where the tile's waves leave SMs idle
                let tiles = tile_count(&config, m, n);
                for splits in [2, 4, 8] {
                    if batches == 1 && tiles * splits <= 2 * r.sm_count as i64 {
                        kernels.extend(sm90_split_k(r, &batch, op, (config, splits), false));
                    }
                }
            }
            if batches == 1 {
                kernels.extend(sm90_narrow(r, &batch, op));
            }
            // stream-K on the 128x256 tile also where the heuristic would not take it
            let stream_k = Request {
                decomposition: Decomposition::StreamK,
                ..r.clone()
            };
            let bs = (batches, batch_strides);
            kernels.extend(sm90_kernel_with(
                &stream_k,
                &batch,
                op,
                HopperConfig::large(),
                bs,
            ));
            for config in clustered {
                kernels.extend(sm90_kernel_with(
                    r,
                    &batch,
                    op,
                    config,
                    (batches, batch_strides),
                ));
            }
        }
        let spec = sm80_spec(r, &batch);
        for config in [GemmConfig::default(), spec.config] {
            let opts = GemmOptions {
                epilogue: op,
                ..GemmOptions::default()
            };
            let k = generate_gemm_with(
                &GemmSpec {
                    config,
                    ..spec.clone()
                },
                &opts,
            )?;
            kernels.push(Choice::of(k, "sm80"));
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    kernels.retain(|c| seen.insert(identity(&c.kernel, c.split_k.as_ref())));
    Ok(kernels
        .into_iter()
        .map(|c| c.into_plan(&batch, batches, batch_strides))
        .collect())
}

/// Validates `r` and normalizes it to one batch's rank-2 problem: `None` when there is nothing to compute.
fn normalize(r: &Request) -> Result<Option<(Batch, i64, [i64; 4])>> {
    if !r.input.is_half() {
        return bad(format!(
            "A and B must be f16 or bf16, got {}",
            r.input.name()
        ));
    }
    let (a, b, d) = (modes(r.a, "A")?, modes(r.b, "B")?, modes(r.d, "D")?);
    let batches = check_shapes(r, &a, &b, &d)?;
    let (m, k, n) = (a[0].0, a[1].0, b[1].0);
    if m == 0 || n == 0 || batches == 0 {
        return Ok(None);
    }
    let c = r.c.map(|c| modes(c, "C")).transpose()?;
    let bstride = |x: &[(i64, i64)]| x.get(2).map_or(0, |y| y.1);
    let batch_strides = [
        bstride(&a),
        bstride(&b),
        c.as_deref().map_or(0, bstride),
        bstride(&d),
    ];
    let batch = Batch {
        a: normalized([m, k], [a[0].1, a[1].1])?,
        b: normalized([k, n], [b[0].1, b[1].1])?,
        d: normalized([m, n], [d[0].1, d[1].1])?,
        swapped: false,
    };
    // D column-major: compute Dᵀ (N,M) row-major = Bᵀ (N,K) · Aᵀ (K,M)
    let batch = if d[1].1 != 1 && d[0].1 == 1 {
        transposed(&batch)?
    } else {
        batch
    };
    let c_strides_differ = match &c {
        Some(cm) => cm.iter().zip(&d).take(2).any(|(x, y)| x.1 != y.1),
        None => false,
    };
    if c_strides_differ {
        return bad(format!(
            "C {} must have D's strides {} (the kernels read C and write D through one layout)",
            r.c.map(|l| l.to_string()).unwrap_or_default(),
            r.d
        ));
    }
    Ok(Some((batch, batches, batch_strides)))
}

/// The operand's major and leading dimension, if one of its strides is 1 (`k_mode` is K's mode).
fn major_ld(l: &Layout, k_mode: usize) -> Option<(Major, i64)> {
    let m = flat_modes(l).ok()?;
    let (k, mn) = (m[k_mode].1, m[1 - k_mode].1);
    if k.value == 1 {
        Some((Major::K, mn.value))
    } else if mn.value == 1 {
        Some((Major::MN, k.value))
    } else {
        None
    }
}

/// Whether the tensor-core paths can take the operands: unit strides, leading dimensions multiples of 8
/// (16-byte rows for cp.async and TMA), 16-byte aligned bases and batch strides, D row-major with an even
/// leading dimension.
fn vectorizable(r: &Request, p: &Batch, batch_strides: [i64; 4]) -> bool {
    let (a, b) = (major_ld(&p.a, 1), major_ld(&p.b, 0));
    let d = flat_modes(&p.d).ok();
    let d_ok = d.is_some_and(|d| d[1].1.value == 1 && d[0].1.value % 2 == 0);
    let ld_ok = |x: Option<(Major, i64)>| x.is_some_and(|(_, ld)| ld % 8 == 0);
    let esize = [2, 2, r.output.bytes(), r.output.bytes()];
    let batch_ok = batch_strides
        .iter()
        .zip(esize)
        .all(|(s, e)| (s * e) % 16 == 0);
    ld_ok(a) && ld_ok(b) && d_ok && batch_ok && r.aligned.iter().all(|&x| x)
}

/// The op in the kernel's orientation: a transposed problem (D column-major) swaps rows and columns.
fn oriented(op: EpilogueOp, swapped: bool) -> EpilogueOp {
    let bias = match (op.bias, swapped) {
        (BiasKind::PerRow, true) => BiasKind::PerColumn,
        (BiasKind::PerColumn, true) => BiasKind::PerRow,
        (b, _) => b,
    };
    EpilogueOp {
        bias,
        scale: false,
        ..op
    }
}

fn choose(r: &Request, p: &Batch, batches: i64, strides: [i64; 4]) -> Result<Choice> {
    let k = flat_modes(&p.a)?[1].0.value;
    let op = oriented(r.op, p.swapped);
    if k > 0 && vectorizable(r, p, strides) {
        let hopper = if r.arch.starts_with("sm_90") {
            sm90_kernel(r, p, op, (batches, strides)).ok()
        } else {
            None
        };
        if let Some(choice) = hopper {
            return Ok(choice);
        }
        let opts = GemmOptions {
            epilogue: op,
            ..GemmOptions::default()
        };
        let k = generate_gemm_with(&sm80_spec(r, p), &opts)?;
        return Ok(Choice::of(k, "sm80"));
    }
    let k = generate_gemm_simt(&sm80_spec(r, p), &op)?;
    Ok(Choice::of(k, "simt"))
}

/// The SM80 configuration by shape: 128x256 tiles (2x4 warps) for large outputs, else 128x128 with two
/// CTAs per SM.
///
/// ```
/// use cute_gpu::{kernels::gemm_sm80::GemmConfig, matmul::plan::sm80_config};
/// assert_eq!(sm80_config(1024, 1024), GemmConfig::default());
/// let big = sm80_config(4096, 4096);
/// assert_eq!((big.bm, big.bn, big.warps_m, big.warps_n), (128, 256, 2, 4));
/// ```
pub fn sm80_config(m: i64, n: i64) -> GemmConfig {
    if m * n >= 4096 * 4096 {
        GemmConfig {
            bn: 256,
            warps_n: 4,
            min_blocks: 1,
            ..GemmConfig::default()
        }
    } else {
        GemmConfig::default()
    }
}

fn sm80_spec(r: &Request, p: &Batch) -> GemmSpec {
    let dims = |l: &Layout| {
        flat_modes(l)
            .map(|m| (m[0].0.value, m[1].0.value))
            .unwrap_or((0, 0))
    };
    let (m, n) = dims(&p.d);
    GemmSpec {
        a: p.a.clone(),
        b: p.b.clone(),
        c: p.d.clone(),
        input: r.input,
        output: r.output,
        alpha: r.alpha,
        beta: r.beta,
        config: sm80_config(m, n),
    }
}

/// `(batches, batch strides of A, B, C, D of the request)`.
type Batches = (i64, [i64; 4]);

/// The SM90 kernel by shape; a batch fills the SMs with every batch's tiles (as `batches` times the
/// rows); one batch whose tiles leave SMs idle while K is long splits K ([`sm90_splits`]).
fn sm90_kernel(r: &Request, p: &Batch, op: EpilogueOp, batches: Batches) -> Result<Choice> {
    let d = flat_modes(&p.d)?;
    let (m, n, ldd) = (d[0].0.value, d[1].0.value, d[0].1.value);
    let k = flat_modes(&p.a)?[1].0.value;
    let ldd_bytes = ldd * r.output.bytes();
    let config = sm90_config(m * batches.0, n, ldd_bytes, r.sm_count);
    let k_blocks = k * r.input.bytes() / 128;
    if batches.0 > 1 {
        let config = short_mainloop_tile(r, config, [m * batches.0, n], k_blocks);
        let tiles = tile_count(&config, m, n) * batches.0;
        let config = sm90_cluster(config, tiles, r.sm_count);
        return sm90_kernel_with(r, p, op, config, batches);
    }
    if let Ok(choice) = sm90_narrow(r, p, op) {
        return Ok(choice);
    }
    let shape = [m, n, k, r.output.bytes()];
    let rows_ok = ldd_bytes % 16 == 0;
    let config = sm90_read_bound_tile(config, shape, rows_ok, r.sm_count);
    let config = short_mainloop_tile(r, config, [m, n], k_blocks);
    if let Some((split, splits)) = sm90_splits(config, shape, rows_ok, r.sm_count) {
        if let Ok(choice) = sm90_split_k(r, p, op, (split, splits), false) {
            return Ok(choice);
        }
    }
    let config = sm90_cluster(config, tile_count(&config, m, n), r.sm_count);
    sm90_kernel_with(r, p, op, config, batches)
}

/// The unsplit problem of a normalized batch.
fn hopper_problem(p: &Batch) -> Result<HopperProblem> {
    let (a, b) = (major_ld(&p.a, 1), major_ld(&p.b, 0));
    let (Some((a_major, lda)), Some((b_major, ldb))) = (a, b) else {
        return bad("operands without a unit stride".into());
    };
    let d = flat_modes(&p.d)?;
    // row-major but for a transposed decode-like batch ([`transposed`])
    let d_column_major = d[0].1.value == 1 && d[1].1.value != 1;
    Ok(HopperProblem {
        m: d[0].0.value,
        n: d[1].0.value,
        k: flat_modes(&p.a)?[1].0.value,
        lda,
        ldb,
        ldd: d[usize::from(d_column_major)].1.value,
        a_major,
        b_major,
        batch: None,
        d_column_major,
    })
}

/// alpha, beta·C (when they are not 1 and 0), bias and activation of `r`.
fn fused(r: &Request, op: EpilogueOp) -> Fused {
    Fused {
        op: EpilogueOp {
            scale: r.alpha != 1.0 || r.beta != 0.0,
            ..op
        },
        alpha: r.alpha,
        beta: r.beta,
    }
}

/// The batch of the kernel's operands (A and B swapped with the problem), `None` for one batch.
fn hopper_batch(p: &Batch, (count, s): Batches) -> Option<HopperBatch> {
    let (a, b) = if p.swapped {
        (s[1], s[0])
    } else {
        (s[0], s[1])
    };
    (count > 1).then_some(HopperBatch {
        k_slices: false,
        count,
        a,
        b,
        c: s[2],
        d: s[3],
    })
}

/// The SM90 kernel with `config`: with every batch in one launch where the batch strides allow (else
/// one launch per batch).
fn sm90_kernel_with(
    r: &Request,
    p: &Batch,
    op: EpilogueOp,
    config: HopperConfig,
    batches: Batches,
) -> Result<Choice> {
    let problem = hopper_problem(p)?;
    let fused = fused(r, op);
    if let Some(batch) = hopper_batch(p, batches) {
        let batched = HopperProblem {
            batch: Some(batch),
            ..problem
        };
        let config = stream_k_for(r, &batched, config);
        let direct = HopperConfig {
            tma_store: false,
            ..config
        };
        // the TMA-store epilogue where D's batch stride allows, else the direct one
        for config in [config, direct] {
            if let Ok(k) = generate_hopper_gemm_with(&batched, r.input, r.output, &config, &fused) {
                return Ok(Choice {
                    all_batches: true,
                    ..Choice::of(k, "sm90")
                });
            }
        }
    }
    let config = stream_k_for(r, &problem, config);
    let k = generate_hopper_gemm_with(&problem, r.input, r.output, &config, &fused)?;
    Ok(Choice::of(k, "sm90"))
}
