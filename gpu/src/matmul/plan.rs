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

/// The SM90 tile configurations the heuristic chooses from, with the relative efficiency of one tile
/// (larger tiles reuse more data per byte loaded; measured on the H100, 2026-11-24): 128x256 and
/// 128x128 cooperative, 64x128 and 64x64 persistent with one consumer. `tma_store(bm, bn)` says where
/// the output allows a tile the TMA-store epilogue; the 128x256 tile needs it.
fn sm90_candidates(tma_store: impl Fn(i64, i64) -> bool) -> Vec<(HopperConfig, f64)> {
    let persistent = |bm, bn, stages| HopperConfig {
        bm,
        bn,
        stages,
        persistent: true,
        tma_store: tma_store(bm, bn),
        ..HopperConfig::default()
    };
    // The 64x128 tile launched after the previous grid has completed: with programmatic dependent
    // launch it read 2.7-4.0 % slower at 128x8192x8192 in three A/Bs (runs 164-165, bf16 and f16).
    // With the TMA-store epilogue it read +1.4 / +1.4 % there (`bench_hopper shortm`, run179).
    let serialized = |c| HopperConfig {
        dependent_launch: false,
        ..c
    };
    // 128x128 with two consumers of 64x128 and the TMA-store epilogue instead of one consumer storing
    // from its registers: 256x8192x8192 +5.2 / +5.1 % (0.96 -> 1.01-1.02 of cublasGemmEx), two consumers
    // alone +0.8 / +0.9 % (`bench_hopper shortm`, gpu/logs/matmul/run176)
    let cooperative = HopperConfig {
        consumers: 2,
        ..persistent(128, 128, 6)
    };
    let mut c = vec![
        (cooperative, 0.8),
        (serialized(persistent(64, 128, 8)), 0.62),
        // the 64x64 tile keeps the register epilogue (not measured with the TMA store)
        (
            HopperConfig {
                tma_store: false,
                ..persistent(64, 64, 8)
            },
            0.45,
        ),
    ];
    if tma_store(128, 256) {
        c.insert(0, (HopperConfig::large(), 1.0));
    }
    c
}

/// [`sm90_candidates`] for an `m x n` output whose rows allow the TMA-store epilogue (`rows_ok`: 16-byte
/// row pitch) or not: a tile takes it where the output is at least the tile.
fn sm90_candidates_for(m: i64, n: i64, rows_ok: bool) -> Vec<(HopperConfig, f64)> {
    sm90_candidates(|bm, bn| rows_ok && m >= bm && n >= bn)
}

/// The SM90 configuration by shape: the candidate with the best tile efficiency times the fraction of the
/// SMs its waves keep busy (`tiles / (waves * sms)`), so that skinny and small outputs get enough tiles.
///
/// ```
/// use cute_gpu::{kernels::gemm_sm90::HopperConfig, matmul::plan::sm90_config};
/// assert_eq!(sm90_config(8192, 8192, 8192 * 2, 132), HopperConfig::large());
/// let small = sm90_config(512, 512, 512 * 2, 132); // 4x2 large tiles would leave most SMs idle
/// assert_eq!((small.bm, small.bn), (64, 64));
/// ```
pub fn sm90_config(m: i64, n: i64, ldd_bytes: i64, sms: u32) -> HopperConfig {
    let candidates = sm90_candidates_for(m, n, ldd_bytes % 16 == 0);
    best_filling(&candidates, m, n, sms).unwrap_or(HopperConfig::large())
}

/// The SM90 FP8 configuration by shape (`bk` = 128): per-tensor scaling chooses as [`sm90_config`] (with [`pingpong_if_short`] and [`sm90_stream_k`]);
/// block scaling holds one 128-column split's product besides the f32 sums, so its candidates have 64
/// rows per consumer: cooperative 128x256 and 128x128 (TMA-store epilogue when D's rows allow), one
/// consumer of 64x128 or 64x64 for small outputs. All but 128x256 (which has no shared memory left for
/// them, and measured slower with them at 3 stages) stage the scales in shared memory
/// ([`HopperConfig::smem_scales`]): the 64x128 tile of a 128x8192x8192 GEMM went from 399 to 576 TFLOP/s
/// with them, 128x128 from 837 to 913 (8192^3). Tiles of 64 x 128 per consumer hold two products
/// ([`HopperConfig::overlap_promotion`]: 128x128 931 -> 995-1006, 64x128 579-589 -> 588-604), and the
/// 128x256 tile staggers its consumers ([`HopperConfig::promotion_stagger`]: 1,077 -> 1,199 at 8192^3).
///
/// ```
/// use cute_gpu::{matmul::plan::sm90_fp8_config, piece::fp8_scaling::Scaling};
/// let c = sm90_fp8_config([8192, 8192, 8192], 8192 * 2, 132, Scaling::Block);
/// assert_eq!((c.bm, c.bn, c.bk, c.consumers, c.smem_scales), (128, 256, 128, 2, false));
/// let skinny = sm90_fp8_config([128, 8192, 8192], 8192 * 2, 132, Scaling::Block);
/// let pt = sm90_fp8_config([8192, 8192, 8192], 8192 * 2, 132, Scaling::PerTensor); // 64 k-blocks
/// assert_eq!((pt.bn, pt.pingpong, pt.bk), (192, true, 128));
/// let long_k = sm90_fp8_config([8192, 4096, 14336], 4096 * 2, 132, Scaling::PerTensor);
/// assert_eq!((long_k.bn, long_k.stream_k, long_k.cluster), (256, 132, 2)); // 1024 tiles: stream-K, in clusters
/// assert_eq!((skinny.bm, skinny.bn, skinny.consumers, skinny.smem_scales), (64, 128, 1, true));
/// assert!(skinny.overlap_promotion && c.promotion_stagger > 0);
/// ```
pub fn sm90_fp8_config(
    [m, n, k]: [i64; 3],
    ldd_bytes: i64,
    sms: u32,
    scaling: Scaling,
) -> HopperConfig {
    let config = match scaling {
        Scaling::PerTensor => {
            let c = pingpong_if_short(sm90_config(m, n, ldd_bytes, sms), [m, n], k / 128, sms, 8);
            let k_blocks = (k + 127) / 128;
            let h = Decomposition::Heuristic;
            let sk = sm90_stream_k(c, tile_count(&c, m, n), k_blocks, sms, h, STREAM_K_MIN_IDLE);
            // stream-K's 128x256 tile in 2-CTA clusters: +2.3 / +2.2 % at 8192x4096x14336, +2.2 /
            // +2.9 % at 8192³ (runs 107 / 109); without stream-K, 4096³ read -1.8 % (run 107)
            match sk.stream_k > 0 && c == HopperConfig::large() {
                true => HopperConfig { cluster: 2, ..sk },
                false => sk,
            }
        }
        Scaling::Block => {
            let tma_store = ldd_bytes % 16 == 0;
            let wide = HopperConfig {
                tma_store,
                promotion_stagger: 128,
                ..HopperConfig::large()
            };
            let cooperative = sm90_fp8_block_cooperative(wide);
            let small = sm90_candidates(|_, _| false)
                .into_iter()
                .filter(|(c, _)| c.bm == 64)
                .map(|(c, eff)| {
                    let staged = HopperConfig {
                        smem_scales: true,
                        overlap_promotion: c.bn == 128,
                        ..c
                    };
                    (staged, eff)
                })
                .collect::<Vec<_>>();
            let candidates: Vec<_> = [(wide, 1.0), (cooperative, 0.75)]
                .into_iter()
                .chain(small)
                .collect();
            best_filling(&candidates, m, n, sms).unwrap_or(wide)
        }
    };
    config.for_bits(8)
}

/// Block scaling's cooperative 128x128 tile from its 128x256 one (`wide`): scales staged in shared
/// memory, two product buffers, five stages ([`sm90_fp8_config`]'s second candidate).
///
/// ```
/// use cute_gpu::{kernels::gemm_sm90::HopperConfig, matmul::plan::sm90_fp8_block_cooperative};
/// let c = sm90_fp8_block_cooperative(HopperConfig::large());
/// assert!((c.bn, c.stages, c.smem_scales, c.overlap_promotion) == (128, 5, true, true));
/// ```
pub fn sm90_fp8_block_cooperative(wide: HopperConfig) -> HopperConfig {
    HopperConfig {
        bn: 128,
        stages: 5,
        smem_scales: true,
        overlap_promotion: true,
        ..wide
    }
}

/// Tiles of an `(m, n)` output in `c`'s tiles.
fn tile_count(c: &HopperConfig, m: i64, n: i64) -> i64 {
    ((m + c.bm - 1) / c.bm) * ((n + c.bn - 1) / c.bn)
}

/// The share of `sms` SMs that `tiles` keep busy over their waves: `tiles / (waves * sms)`.
fn wave_fill(tiles: i64, sms: u32) -> f64 {
    let sms = sms.max(1) as i64;
    let waves = (tiles + sms - 1) / sms;
    tiles as f64 / (waves.max(1) * sms) as f64
}

fn best_filling(
    candidates: &[(HopperConfig, f64)],
    m: i64,
    n: i64,
    sms: u32,
) -> Option<HopperConfig> {
    let score = |(c, eff): &(HopperConfig, f64)| eff * wave_fill(tile_count(c, m, n), sms);
    candidates
        .iter()
        .max_by(|x, y| score(x).total_cmp(&score(y)))
        .map(|(c, _)| *c)
}

/// `(batches, batch strides of A, B, C, D of the request)`.
type Batches = (i64, [i64; 4]);

/// A ping-pong tile in place of the cooperative 128x256 one where a tile's mainloop is short (at most 64
/// k-blocks of 128 bytes of K: K <= 4096 for 16-bit inputs, 8192 for FP8), so that its epilogue, a larger
/// share of the tile's time, runs under the other consumer's mainloop: [`HopperConfig::pingpong_wide`]
/// (given 4 % more per tile) and, for at most [`pingpong_128_max_k_blocks`] k-blocks,
/// [`HopperConfig::pingpong_tma_store`] (2 % more), whichever fills the SMs best counting the tiles'
/// ragged edges as lost (a 1024-wide output in 192-column tiles computes 1152 columns). Measured on the
/// H100 against 128x256 in one call
/// (`gpu/logs/final4/sweep.log`, `fp8-sweep.log`): bf16 16384x8192x1024 +7 %, 8192x14336x4096 +3 %,
/// 8192³ equal (128 k-blocks), 8192x4096x14336 -10 %; FP8 per-tensor 8192³ +5 %, 8192x14336x4096 +6 %.
/// The autotuner's settled times on an H200 (run 113, with the hand-off before the last wait): strided
/// batch 32 x 1024³ 128x128 0.1002 ms, 128x256 0.1027, 128x192 0.1024; 4096³ (64 k-blocks) 128x128
/// 0.1938 against 128x256's 0.1747. With the turn passed at the last commit (run128): 2048³ (32
/// k-blocks) 128x128 0.0235 ms, 128x256 0.0240; 4096x4096x2048 128x128 0.0874, 128x256 in clusters
/// 0.0897; 4096³ 128x128 0.1882, 128x256 in clusters 0.1702.
///
/// ```
/// use cute_gpu::{kernels::gemm_sm90::HopperConfig, matmul::plan::pingpong_if_short};
/// let large = HopperConfig::large();
/// assert_eq!(pingpong_if_short(large, [16384, 8192], 16, 132, 16), HopperConfig::pingpong_wide());
/// assert_eq!(pingpong_if_short(large, [8192, 4096], 224, 132, 16), large); // a long mainloop
/// assert_eq!(pingpong_if_short(large, [4096, 4096], 64, 132, 16), large); // 704 tiles fill 5.3 waves
/// // 32 batches of 1024³ (their rows stacked): 128x192 tiles would compute 1152 of 1024 columns
/// let batch = [32 * 1024, 1024];
/// assert_eq!(pingpong_if_short(large, batch, 16, 132, 16), HopperConfig::pingpong_tma_store());
/// // 2048³: one wave of 128x256 tiles or two of 128x128 (FP8: not measured past 16 k-blocks)
/// assert_eq!(pingpong_if_short(large, [2048, 2048], 32, 132, 16), HopperConfig::pingpong_tma_store());
/// assert_eq!(pingpong_if_short(large, [2048, 2048], 32, 132, 8), large);
/// ```
pub fn pingpong_if_short(
    config: HopperConfig,
    [m, n]: [i64; 2],
    k_blocks: i64,
    sms: u32,
    input_bits: i64,
) -> HopperConfig {
    if k_blocks > 64 || config != HopperConfig::large() {
        return config;
    }
    let mut options = vec![(config, 1.0), (HopperConfig::pingpong_wide(), 1.04)];
    if k_blocks <= pingpong_128_max_k_blocks(input_bits) {
        options.push((HopperConfig::pingpong_tma_store(), 1.02));
    }
    // a tile's efficiency counts only the share of its tiles that is output
    let options: Vec<_> = options
        .into_iter()
        .map(|(c, eff)| (c, eff * output_share(&c, m, n)))
        .collect();
    best_filling(&options, m, n, sms).unwrap_or(config)
}

/// The most k-blocks (of 128 bytes of K) for which [`pingpong_if_short`] weighs the 128x128 ping-pong
/// tile: 32 for 16-bit inputs (2048³ and 4096x4096x2048 measured 2-3 % faster than 128x256 in run128),
/// 16 for FP8 (measured only up to there).
///
/// ```
/// assert_eq!(cute_gpu::matmul::plan::pingpong_128_max_k_blocks(16), 32);
/// ```
pub fn pingpong_128_max_k_blocks(input_bits: i64) -> i64 {
    if input_bits == 16 { 32 } else { 16 }
}

/// The share of `c`'s tiles over an `(m, n)` output that lies inside it.
fn output_share(c: &HopperConfig, m: i64, n: i64) -> f64 {
    (m * n) as f64 / (tile_count(c, m, n) * c.bm * c.bn) as f64
}

/// [`pingpong_if_short`] unless the request asks for stream-K, which the ping-pong tiles do not run.
fn short_mainloop_tile(
    r: &Request,
    config: HopperConfig,
    mn: [i64; 2],
    k_blocks: i64,
) -> HopperConfig {
    match r.decomposition {
        Decomposition::StreamK => config,
        _ => pingpong_if_short(config, mn, k_blocks, r.sm_count, 16),
    }
}

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

/// The cooperative 128x256 tile in 2-CTA clusters (B multicast: each CTA of a pair loads half of their
/// common B tile) where its `tiles` fill more than one wave of the `sms` SMs. Not for the ping-pong or
/// 128x128 tiles, nor for one wave. The multicast moves a third less from L2 to shared memory, and on a
/// GPU at its power cap (the H100/H200 at 700 W on random data) that is clock: at base clocks (ncu, run
/// 105) our 4096³ kernel took 287k cycles against cuBLAS's 128x256 and 256x128 kernels' 283k (both in
/// 2-CTA clusters), but moved 952 GB/s against their 794-807 and ran at 0.91-0.94 of them at the power
/// cap. Measured against the same tiles without clusters, every sample after an untimed one, bf16
/// (`bench_hopper clusters`, runs 105 / 107): 4096³ +2.3 / +1.1 %, 8192³ +3.8 / +0.6 %,
/// 8192x4096x14336 +2.8 / +1.2 %, 1024x8192x8192 +2.4 / +2.3 %, 16384x8192x1024 +2.9 / +2.9 % and
/// 8192x14336x4096 +2.6 / +2.1 % (these two take ping-pong 128x192); 2048³ (one wave) -3.5 / -3.1 %;
/// the 128x128 tiles -10 to +1 %, ping-pong 128x192 -4 to +2 %. (Session 7's measurement, -1 to +1 %,
/// timed each kernel right after another kernel: `runtime::bench::settled_ms`.) FP8 per-tensor takes
/// clusters only with stream-K ([`sm90_fp8_config`]: 4096³ read -1.8 % in clusters).
///
/// ```
/// use cute_gpu::{kernels::gemm_sm90::HopperConfig, matmul::plan::sm90_cluster};
/// let large = HopperConfig::large();
/// assert_eq!(sm90_cluster(large, 512, 132).cluster, 2); // 4096³
/// assert_eq!(sm90_cluster(large, 128, 132).cluster, 1); // 2048³: one wave
/// assert_eq!(sm90_cluster(HopperConfig::pingpong_wide(), 704, 132).cluster, 1);
/// ```
pub fn sm90_cluster(config: HopperConfig, tiles: i64, sms: u32) -> HopperConfig {
    match config == HopperConfig::large() && tiles > sms as i64 {
        true => HopperConfig {
            cluster: 2,
            ..config
        },
        false => config,
    }
}

/// Modeled seconds of one SM90 GEMM `[m, n, k, output bytes]` in `splits` K slices with the tile
/// `(config, efficiency)`: the larger of the tensor-core time (the tile's efficiency times the share of
/// the SMs its waves keep busy, of a nominal 700 TFLOP/s) and the time to read A and B once (3 TB/s),
/// plus, split, the workspace's traffic (f32 slices written and read, D written) at an effective 1 TB/s:
/// the slices are written by every CTA at once at the end of its only wave, not under other tiles'
/// mainloops, and read back by a second launch. Fitted to the tuner's times (`CUTE_AUTOTUNE_LOG`,
/// `gpu/logs/final7/autotune-log.txt`): at 256x2048x32768, 128x256 tiles in 8 slices (33.5 MB of
/// slices) took 71.1 us against 65.1 us for 128x128 tiles in 4; at 3 TB/s the model preferred the former.
fn modeled_seconds(tile: (HopperConfig, f64), shape: [i64; 4], splits: i64, sms: u32) -> f64 {
    let [compute, inputs, workspace] = model_terms(tile, shape, splits, sms);
    compute.max(inputs) + workspace
}

/// The terms of [`modeled_seconds`]: tensor-core seconds, seconds to read A and B, workspace seconds.
fn model_terms(
    (c, eff): (HopperConfig, f64),
    [m, n, k, osz]: [i64; 4],
    splits: i64,
    sms: u32,
) -> [f64; 3] {
    let (peak, bandwidth, workspace_bandwidth) = (700e12, 3e12, 1e12);
    let fill = wave_fill(tile_count(&c, m, n) * splits, sms);
    let (m, n, k) = (m as f64, n as f64, k as f64);
    let workspace = if splits > 1 {
        (2.0 * splits as f64 * m * n * 4.0 + m * n * osz as f64) / workspace_bandwidth
    } else {
        0.0
    };
    [
        2.0 * m * n * k / (eff * fill * peak),
        2.0 * (m * k + k * n) / bandwidth,
        workspace,
    ]
}

/// A GEMM `[m, n, k, output bytes]` that the model finds bound by reading A and B with the tile
/// `unsplit` (decode-like M): the candidate of the best tile efficiency among those of at most
/// `max(m, 64)` rows whose tensor-core time stays under that read time. Measured (autotuned, H100,
/// `gpu/logs/final4/bench_skinny_tuned.log`): 64x128 tiles read B in 128-row boxes and reach 0.98 of
/// cuBLASLt at 16x8192x8192, where 64x64 tiles (twice the CTAs) reach 0.89.
///
/// ```
/// use cute_gpu::matmul::plan::{sm90_config, sm90_read_bound_tile};
/// let unsplit = sm90_config(16, 8192, 16384, 132);
/// let c = sm90_read_bound_tile(unsplit, [16, 8192, 8192, 2], true, 132);
/// assert_eq!((unsplit.bm, unsplit.bn, c.bm, c.bn), (64, 64, 64, 128));
/// let big = sm90_config(4096, 4096, 8192, 132);
/// assert_eq!(sm90_read_bound_tile(big, [4096, 4096, 4096, 2], true, 132), big); // compute-bound
/// ```
pub fn sm90_read_bound_tile(
    unsplit: HopperConfig,
    shape: [i64; 4],
    rows_ok: bool,
    sms: u32,
) -> HopperConfig {
    let [m, n, ..] = shape;
    let candidates = sm90_candidates_for(m, n, rows_ok);
    let terms = |c: (HopperConfig, f64)| model_terms(c, shape, 1, sms);
    let Some(&own) = candidates.iter().find(|(c, _)| *c == unsplit) else {
        return unsplit;
    };
    let [compute, inputs, _] = terms(own);
    if compute > inputs {
        return unsplit;
    }
    candidates
        .into_iter()
        .filter(|&(c, e)| c.bm <= m.max(64) && terms((c, e))[0] <= inputs)
        .max_by(|x, y| x.1.total_cmp(&y.1))
        .map_or(unsplit, |x| x.0)
}

/// Split-K for an SM90 GEMM `[m, n, k, output bytes]` whose [`sm90_config`] is `unsplit`: the tile and the
/// slice count (2 to 16, dividing K into slices of at least 512 that are multiples of 8) that the model
/// (tensor-core time at the tile's efficiency and SM fill, time to read A and B, workspace traffic) puts at
/// least 10 % ahead of the unsplit kernel, if any.
///
/// ```
/// use cute_gpu::{kernels::gemm_sm90::HopperConfig, matmul::plan::{sm90_config, sm90_splits}};
/// // 1024x1024 outputs leave 128x256 tiles 32 of 132 SMs: K = 65536 in 4 slices of 128x256 tiles
/// let unsplit = sm90_config(1024, 1024, 2048, 132);
/// let (c, splits) = sm90_splits(unsplit, [1024, 1024, 65536, 2], true, 132).unwrap();
/// assert_eq!((c, splits), (HopperConfig::large(), 4));
/// assert!(sm90_splits(sm90_config(4096, 4096, 8192, 132), [4096, 4096, 4096, 2], true, 132).is_none());
/// assert!(sm90_splits(sm90_config(16, 8192, 16384, 132), [16, 8192, 8192, 2], true, 132).is_none()); // reading B bounds it
/// // 256x2048 outputs: 128x128 tiles in 4 slices, half the workspace of 128x256 tiles in 8
/// let (c, splits) = sm90_splits(sm90_config(256, 2048, 4096, 132), [256, 2048, 32768, 2], true, 132).unwrap();
/// assert_eq!((c.bm, c.bn, splits), (128, 128, 4));
/// ```
pub fn sm90_splits(
    unsplit: HopperConfig,
    shape: [i64; 4],
    rows_ok: bool,
    sms: u32,
) -> Option<(HopperConfig, i64)> {
    let [m, n, k, _] = shape;
    let candidates = sm90_candidates_for(m, n, rows_ok);
    let eff = candidates
        .iter()
        .find(|(c, _)| *c == unsplit)
        .map_or(1.0, |x| x.1);
    let base = modeled_seconds((unsplit, eff), shape, 1, sms);
    let mut best: Option<(f64, HopperConfig, i64)> = None;
    for splits in [2, 3, 4, 6, 8, 12, 16] {
        let slice = k / splits;
        if k % splits != 0 || slice % 8 != 0 || slice < 512 {
            continue;
        }
        for &(c, e) in &candidates {
            let t = modeled_seconds((c, e), shape, splits, sms);
            if best.is_none_or(|b| t < b.0) {
                best = Some((t, c, splits));
            }
        }
    }
    best.filter(|b| b.0 < 0.9 * base).map(|b| (b.1, b.2))
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

/// Split-K: `splits` K slices as a strided batch (slice `s` at `s * K/splits` along K) summed in the GEMM
/// ([`crate::piece::split_sum`]: each warp's last slice adds the others' through the f32 workspace, then
/// runs the fused epilogue); with [`Decomposition::SplitKReduceKernel`] written into an f32 workspace of
/// `(M, ldw)` slices and summed by [`generate_splitk_reduce`] with the fused epilogue.
/// `transpose`: the slices are computed as [`transposed`] (a narrow M), each written column-major in the
/// kernel's view, which is the same `(M, ldw)` slice.
fn sm90_split_k(
    r: &Request,
    p: &Batch,
    op: EpilogueOp,
    (config, splits): (HopperConfig, i64),
    transpose: bool,
) -> Result<Choice> {
    let problem = hopper_problem(p)?;
    let slice = problem.k / splits;
    if splits < 2 || problem.k % splits != 0 || slice % 8 != 0 {
        return bad(format!(
            "split-K needs 2 or more slices of K = {} that are multiples of 8: {splits}",
            problem.k
        ));
    }
    let reduce = SplitKReduce {
        m: problem.m,
        n: problem.n,
        ldd: problem.ldd,
        splits,
        output: r.output,
        fused: fused(r, op),
    };
    let step = |major: Major, ld: i64| if major == Major::K { slice } else { slice * ld };
    let t = transpose.then(|| transposed(p)).transpose()?;
    let gemm = match &t {
        Some(t) => hopper_problem(t)?,
        None => problem,
    };
    let slices = |d, k_slices| HopperBatch {
        count: splits,
        a: step(gemm.a_major, gemm.lda),
        b: step(gemm.b_major, gemm.ldb),
        d,
        c: 0,
        k_slices,
    };
    // summed in the GEMM unless asked for the second kernel: against it (`bench_matmul --split-k-ab`,
    // run 156, H200) 256x2048x32768 1.00, 1024x1024x65536 1.03, 128x1024x16384 1.02, 16x4096x4096
    // 1.08, 64x4096x8192 1.10 (with the sums at their places in the output, runs 154 / 155, the first
    // read 0.74: its loads went out two at a time)
    let two_launches = r.decomposition == Decomposition::SplitKReduceKernel;
    let (kernel, reduce, workspace_elems) = match two_launches {
        true => {
            let sliced = HopperProblem {
                k: slice,
                ldd: reduce.ldw(),
                batch: Some(slices(reduce.split_stride(), false)),
                ..gemm
            };
            let kernel = generate_hopper_gemm_with(
                &sliced,
                r.input,
                DType::F32,
                &config,
                &Fused::default(),
            )?;
            let elems = reduce.workspace_elems();
            (kernel, Some(generate_splitk_reduce(&reduce)?), elems)
        }
        false => {
            let sliced = HopperProblem {
                k: slice,
                batch: Some(slices(0, true)),
                ..gemm
            };
            let fused = fused(r, oriented(op, transpose));
            let kernel = generate_hopper_gemm_with(&sliced, r.input, r.output, &config, &fused)?;
            let Some(w) = kernel.buffers.iter().find(|b| b.name == "W") else {
                return bad(format!(
                    "{}: a split-K kernel without its workspace W",
                    kernel.name
                ));
            };
            let elems = w.bytes as i64 / 4;
            (kernel, None, elems)
        }
    };
    Ok(Choice {
        all_batches: true,
        split_k: Some(SplitK {
            splits,
            workspace_elems,
            reduce,
        }),
        batch: t,
        ..Choice::of(kernel, "sm90")
    })
}

/// The batch computed transposed, `Dᵀ (N,M) = Bᵀ (N,K) · Aᵀ (K,M)`: A and B swap roles (and buffers), D
/// stays where it is, column-major in the kernel's view (for GEMMs with few rows, [`sm90_narrow_config`]).
///
/// ```
/// # use cute_gpu::{DType, matmul::plan::*};
/// # let l = |s: &str| s.parse::<cute_layout_core::Layout>().unwrap();
/// let (a, b, d) = (l("(16,4096):(4096,_1)"), l("(4096,8192):(_1,4096)"), l("(16,8192):(8192,_1)"));
/// # let r = Request {
/// #     a: &a, b: &b, c: None, d: &d, input: DType::BF16, output: DType::BF16, alpha: 1.0, beta: 0.0,
/// #     arch: "sm_90a", aligned: [true; 4], sm_count: 132, op: Default::default(),
/// #     decomposition: Default::default(),
/// # };
/// // 16 rows: the kernel computes Dᵀ, its 16 columns the wgmma's N
/// let p = plan(&r).unwrap().unwrap();
/// assert!(p.batch.swapped && p.kernel.name.contains("_64x16x64_") && p.kernel.name.contains("_dT"));
/// assert_eq!(p.batch.d.to_string(), "(8192,16):(_1,8192)");
/// ```
pub fn transposed(p: &Batch) -> Result<Batch> {
    let two = |l: &Layout| -> Result<[(i64, i64); 2]> {
        let m = flat_modes(l)?;
        Ok([0, 1].map(|i| (m[i].0.value, m[i].1.value)))
    };
    let ([(m, a0), (k, a1)], [(_, b0), (n, b1)], [(_, d0), (_, d1)]) =
        (two(&p.a)?, two(&p.b)?, two(&p.d)?);
    Ok(Batch {
        a: normalized([n, k], [b1, b0])?,
        b: normalized([k, m], [a1, a0])?,
        d: normalized([n, m], [d1, d0])?,
        swapped: !p.swapped,
    })
}

/// The configuration of a GEMM with a narrow side of `rows` (at most 64; decode-like): 64-row tiles
/// along the long side by `rows` rounded up to 16 (the wgmma's N), one consumer, as many stages as fit in
/// 192 KiB (16 at most), persistent, the direct epilogue. A 16x8192x8192 GEMM then reads B in 128 tiles
/// of 10 KiB stages, where 64x128 tiles read it in 64 tiles whose A boxes are three quarters padding
/// (cuBLASLt's kernel for it: `nvjet_sm90_tst_64x16_64x16`, 128 CTAs, `gpu/logs/matmul/run90/ncu-decode.log`).
///
/// ```
/// use cute_gpu::matmul::plan::sm90_narrow_config;
/// let c = sm90_narrow_config(16).unwrap();
/// assert_eq!((c.bm, c.bn, c.consumers, c.stages, c.tma_store), (64, 16, 1, 16, false));
/// assert_eq!(sm90_narrow_config(64).unwrap().stages, 12);
/// assert!(sm90_narrow_config(65).is_none());
/// ```
pub fn sm90_narrow_config(rows: i64) -> Option<HopperConfig> {
    if !(1..=64).contains(&rows) {
        return None;
    }
    let bn = (rows + 15) / 16 * 16;
    let stage_bytes = (64 + bn) * 128;
    Some(HopperConfig {
        bm: 64,
        bn,
        consumers: 1,
        stages: (196608 / stage_bytes).min(16) as u32,
        persistent: true,
        tma_store: false,
        ..HopperConfig::default()
    })
}

/// K slices for a narrow GEMM whose `tiles` 64-row tiles leave more than half of the `sms` SMs idle: the
/// most slices (up to 8) whose tiles still fit in one wave, each slice of K at least 512 and a multiple
/// of 8. 16x4096x4096: 64 tiles, 2 slices (0.88 -> 1.00 of cuBLASLt, `gpu/logs/matmul/run95`). Tiles
/// whose last wave is mostly idle are not split: 16x11008x4096 (172 tiles, waves 65 % full) measured
/// 0.87 unsplit and 0.85 in 2 slices (`run96`).
///
/// ```
/// use cute_gpu::matmul::plan::sm90_narrow_splits;
/// assert_eq!(sm90_narrow_splits(64, 4096, 132), Some(2));
/// assert_eq!(sm90_narrow_splits(16, 65536, 132), Some(8));
/// assert_eq!(sm90_narrow_splits(128, 8192, 132), None); // 128 tiles fill the SMs
/// assert_eq!(sm90_narrow_splits(64, 512, 132), None); // K too short to split
/// ```
pub fn sm90_narrow_splits(tiles: i64, k: i64, sms: u32) -> Option<i64> {
    let sms = sms as i64;
    if tiles < 1 || 2 * tiles > sms {
        return None;
    }
    (2..=8)
        .rev()
        .find(|&s| tiles * s <= sms && k % s == 0 && (k / s) % 8 == 0 && k / s >= 512)
}

/// One batch with a narrow side ([`sm90_narrow_config`]): N as it is, or M by computing the batch
/// [`transposed`] (its rows become the wgmma's N; D column-major in the kernel's view); in K slices
/// where its tiles leave most SMs idle ([`sm90_narrow_splits`]); `op` oriented for `p`.
fn sm90_narrow(r: &Request, p: &Batch, op: EpilogueOp) -> Result<Choice> {
    let d = flat_modes(&p.d)?;
    let (m, n) = (d[0].0.value, d[1].0.value);
    let k = flat_modes(&p.a)?[1].0.value;
    let (config, transpose) = match (sm90_narrow_config(n), sm90_narrow_config(m)) {
        (Some(c), _) => (c, false),
        (None, Some(c)) => (c, true),
        (None, None) => return bad(format!("no side of {m}x{n} is at most 64")),
    };
    let long = if transpose { n } else { m };
    if let Some(splits) = sm90_narrow_splits((long + 63) / 64, k, r.sm_count) {
        if let Ok(choice) = sm90_split_k(r, p, op, (config, splits), transpose) {
            return Ok(choice);
        }
    }
    if !transpose {
        return sm90_kernel_with(r, p, op, config, (1, [0; 4]));
    }
    let t = transposed(p)?;
    let fused = fused(r, oriented(op, true));
    let problem = hopper_problem(&t)?;
    let config = stream_k_for(r, &problem, config);
    let kernel = generate_hopper_gemm_with(&problem, r.input, r.output, &config, &fused)?;
    Ok(Choice {
        batch: Some(t),
        ..Choice::of(kernel, "sm90")
    })
}

/// `config` with stream-K ([`crate::piece::stream_k`]) for `tiles` tiles of `k_blocks` k-blocks on `sms`
/// SMs where `decomposition` asks for it or, by the heuristic, where there are more tiles than SMs and
/// whole tiles leave the SMs idle for at least `min_idle` of a tile in the last wave ([`STREAM_K_MIN_IDLE`]
/// for tiles bound by the tensor cores, [`STREAM_K_MIN_IDLE_NARROW`] for the narrow tiles that stream
/// B at the memory's rate) and for at least [`STREAM_K_FIXUP_K_BLOCKS`] k-blocks' time (what a cut
/// tile's partial sums cost). Only for what the kernel allows (persistent cooperative consumers, no
/// cluster).
///
/// Measured against the same tiles without it (`bench_hopper streamk`, H200, runs 100 and 101, idle
/// share of a tile in brackets): bf16 8192³ +2.8 / +1.5 % (0.48), 8192x4096x14336 +6.7 / +2.6 % (0.24),
/// 8192x14336x4096 +2.0 / +3.9 % (0.85), 16384x8192x1024 +0.9 / +1.5 % (0.97); 4096³ -0.1 / -5.1 %
/// (0.12), 1024x8192x8192 -4.2 / -3.6 % (0.06), 2048³ in 128x128 tiles -16 / -15 % (0.06): the cut
/// tiles' partial sums cost more than the idle time they save. FP8 per tensor (`bench_fp8 streamk`, run
/// 101): 8192x4096x14336 +2.1 %, 8192³ +2.7 %, 8192x14336x4096 +3.8 %, 4096³ -3.8 %. Narrow (decode)
/// tiles: 11008x16x4096 +5.6 / +7.4 % (0.70), 11008x32 +6.2 / +8.6 %, but 14336x16 -4.0 / -2.6 % (0.30;
/// +4.7 % in run 99): a last wave of 92 narrow tiles keeps the memory nearly as busy as a full one.
/// The strided batch 32 x 1024³ (1024 tiles of 16 k-blocks, 0.24 idle: 4 k-blocks' time) read 0.86 of
/// whole tiles with it (`bench_matmul --stream-k-ab`, run 103, two processes).
///
/// ```
/// use cute_gpu::{kernels::gemm_sm90::HopperConfig, matmul::plan::*};
/// let large = HopperConfig::large();
/// let h = Decomposition::Heuristic;
/// assert_eq!(sm90_stream_k(large, 172, 64, 132, h, STREAM_K_MIN_IDLE).stream_k, 132); // 40 in the last wave
/// assert_eq!(sm90_stream_k(large, 512, 64, 132, h, STREAM_K_MIN_IDLE).stream_k, 0); // 116 of 132: 0.12 idle
/// assert_eq!(sm90_stream_k(large, 224, 64, 132, h, STREAM_K_MIN_IDLE_NARROW).stream_k, 0); // 0.30 idle
/// assert_eq!(sm90_stream_k(large, 264, 64, 132, h, STREAM_K_MIN_IDLE).stream_k, 0); // two full waves
/// assert_eq!(sm90_stream_k(large, 1024, 16, 132, h, STREAM_K_MIN_IDLE).stream_k, 0); // 0.24 x 16 k-blocks
/// assert_eq!(sm90_stream_k(large, 64, 64, 132, h, STREAM_K_MIN_IDLE).stream_k, 0); // split-K's
/// let forced = Decomposition::StreamK;
/// assert_eq!(sm90_stream_k(large, 264, 64, 132, forced, STREAM_K_MIN_IDLE).stream_k, 132);
/// let pingpong = HopperConfig::pingpong();
/// assert_eq!(sm90_stream_k(pingpong, 172, 64, 132, forced, STREAM_K_MIN_IDLE).stream_k, 0);
/// ```
pub fn sm90_stream_k(
    config: HopperConfig,
    tiles: i64,
    k_blocks: i64,
    sms: u32,
    decomposition: Decomposition,
    min_idle: f64,
) -> HopperConfig {
    let sms_i = sms.max(1) as i64;
    let allowed = config.persistent
        && !config.pingpong
        && k_blocks <= crate::piece::stream_k::max_k_blocks(sms_i);
    let idle = ((tiles + sms_i - 1) / sms_i * sms_i - tiles) as f64 / sms_i as f64;
    let wanted = match decomposition {
        Decomposition::Tiles => false,
        Decomposition::StreamK => true,
        Decomposition::Heuristic | Decomposition::SplitKReduceKernel => {
            tiles > sms_i && idle >= min_idle && idle * k_blocks as f64 >= STREAM_K_FIXUP_K_BLOCKS
        }
    };
    if allowed && wanted {
        HopperConfig {
            stream_k: sms,
            ..config
        }
    } else {
        config
    }
}

/// The heuristic takes stream-K for tiles bound by the tensor cores where whole tiles leave every SM
/// idle for at least this share of a tile's time in the last wave, on average ([`sm90_stream_k`]).
pub const STREAM_K_MIN_IDLE: f64 = 0.2;

/// The heuristic takes stream-K only where the last wave's idle time is worth at least this many
/// k-blocks: about what cutting tiles costs, fitted to the measurements of [`sm90_stream_k`]
/// (16384x8192x1024 gained 1.2 % where a tile's idle time over 32 waves would be 3 %).
pub const STREAM_K_FIXUP_K_BLOCKS: f64 = 10.0;

/// [`STREAM_K_MIN_IDLE`] for the narrow (decode) tiles, which read B at the memory's rate: a last wave
/// that keeps half the SMs busy keeps the memory about as busy as a full one.
pub const STREAM_K_MIN_IDLE_NARROW: f64 = 0.5;

/// [`sm90_stream_k`] for the kernel of `p` (every batch's tiles) with `config`, the narrow threshold for
/// a [`sm90_narrow_config`] tile.
fn stream_k_for(r: &Request, p: &HopperProblem, config: HopperConfig) -> HopperConfig {
    let tiles = tile_count(&config, p.m, p.n) * p.batch.map_or(1, |b| b.count);
    let k_blocks = (p.k + config.bk - 1) / config.bk;
    let min_idle = match sm90_narrow_config(config.bn) == Some(config) {
        true => STREAM_K_MIN_IDLE_NARROW,
        false => STREAM_K_MIN_IDLE,
    };
    sm90_stream_k_raster(sm90_stream_k(
        config,
        tiles,
        k_blocks,
        r.sm_count,
        r.decomposition,
        min_idle,
    ))
}

/// Stream-K in 2-CTA clusters walks the raster along N ([`HopperConfig::raster_n`]; the 16-bit GEMM's
/// choice, FP8 not measured). Against the raster along M (`bench_hopper rasters`, runs 135 / 136, bf16,
/// H200, two processes): 16384x8192x1024 +4.8 / +5.2 %, 8192x14336x4096 +1.8 / +1.6 %, 2048³ +0.7 /
/// +0.3 %, 4096³ +2.7 / +3.9 %, 8192³ +2.0 / +2.8 %, 8192x4096x14336 +0.1 / +4.0 %, 1024x8192x8192
/// +3.8 / +3.6 %; the same clustered tile without stream-K read -4.8 to +4.6 % and the clustered
/// ping-pong 128x128 -5 to -1 %, so they keep the raster along M.
///
/// ```
/// use cute_gpu::{kernels::gemm_sm90::HopperConfig, matmul::plan::sm90_stream_k_raster};
/// let clustered = HopperConfig { cluster: 2, ..HopperConfig::large() };
/// assert!(sm90_stream_k_raster(HopperConfig { stream_k: 132, ..clustered }).raster_n);
/// assert!(!sm90_stream_k_raster(clustered).raster_n);
/// assert!(!sm90_stream_k_raster(HopperConfig { stream_k: 132, ..HopperConfig::large() }).raster_n);
/// ```
pub fn sm90_stream_k_raster(config: HopperConfig) -> HopperConfig {
    HopperConfig {
        raster_n: config.stream_k > 0 && config.cluster > 1,
        ..config
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
