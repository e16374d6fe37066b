//! The GEMM call on cudarc buffers: checks (lengths, overlap, alignment) before any launch, the plan
//! cache, and the launches (one per batch) on the caller's stream, with cudarc's event tracking kept
//! around each launch.
//!
//! ```no_run
//! use cute_gpu::matmul::{Gemm, Matrix, MatrixMut};
//! let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
//! let a = stream.clone_htod(&vec![half::bf16::from_f32(1.0); 64 * 32]).unwrap();
//! let mut d = stream.alloc_zeros::<f32>(64 * 64).unwrap();
//! let a = Matrix::new(&a, "(64,32):(32,_1)".parse().unwrap()); // A row-major; its transpose as B:
//! let at = Matrix::new(a.data, "(32,64):(_1,32)".parse().unwrap());
//! let gemm = Gemm::new(&stream).unwrap();
//! gemm.run(&a, &at, None::<&Matrix<f32>>, &mut MatrixMut::new(&mut d, "(64,64):(64,_1)".parse().unwrap()), 1.0, 0.0).unwrap();
//! assert_eq!(stream.clone_dtoh(&d).unwrap()[0], 32.0); // A·Aᵀ of ones: K = 32
//! ```

mod fp8;

pub use fp8::{Fp8Element, Fp8Scales};

use super::plan::{Decomposition, Plan, Request, Span, alternatives, check_spans, plan};
use super::tune::{TuneTable, class_key};
use crate::dtype::DType;
use crate::error::{GpuError, Result};
use crate::piece::epilogue_op::{Activation, BiasKind, EpilogueOp};
use crate::runtime::{LoadedKernel, Prepared, RawBuffer, Runtime};
use cudarc::driver::{CudaSlice, CudaStream, DevicePtr, DevicePtrMut, DeviceRepr, ValidAsZeroBits};
use cute_layout_core::Layout;
use std::collections::HashMap;
use std::io::IsTerminal;
use std::sync::{Arc, Mutex, MutexGuard};

/// About how long (ms) the autotuner times each alternative, after as long untimed.
pub const TUNER_SAMPLE_MS: f64 = 10.0;

/// An element type of GEMM operands: `half::f16`, `half::bf16` (A, B, C, D) or `f32` (C, D).
///
/// ```
/// use cute_gpu::{DType, matmul::Element};
/// assert_eq!(<half::bf16 as Element>::DTYPE, DType::BF16);
/// assert_eq!(<f32 as Element>::DTYPE, DType::F32);
/// ```
pub trait Element: DeviceRepr + ValidAsZeroBits {
    /// The kernel-side type.
    ///
    /// ```
    /// use cute_gpu::{DType, matmul::Element};
    /// assert_eq!(<half::f16 as Element>::DTYPE, DType::F16);
    /// ```
    const DTYPE: DType;
}

impl Element for half::f16 {
    const DTYPE: DType = DType::F16;
}
impl Element for half::bf16 {
    const DTYPE: DType = DType::BF16;
}
impl Element for f32 {
    const DTYPE: DType = DType::F32;
}

/// A read-only operand: a device buffer and the CuTe layout of the matrix in it (element offsets from
/// `offset`, the element where coordinate 0 lies).
///
/// ```no_run
/// use cute_gpu::matmul::Matrix;
/// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
/// let buf = stream.alloc_zeros::<half::bf16>(4 * 128 * 64).unwrap();
/// // 4 batches of a row-major (128,64) matrix, 128*64 elements apart
/// let a = Matrix::new(&buf, "(128,64,4):(64,_1,8192)".parse().unwrap());
/// assert_eq!(a.layout.to_string(), "(128,64,4):(64,_1,8192)");
/// ```
pub struct Matrix<'a, T> {
    /// The buffer.
    pub data: &'a CudaSlice<T>,
    /// `(rows, columns[, batch]) : (strides)`.
    pub layout: Layout,
    /// The element of `data` at the layout's coordinate 0 (0 with [`Matrix::new`]).
    pub offset: usize,
}

impl<'a, T> Matrix<'a, T> {
    /// The matrix `layout` in `data`, from its first element.
    ///
    /// ```no_run
    /// use cute_gpu::matmul::Matrix;
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let buf = stream.alloc_zeros::<half::f16>(256 * 64).unwrap();
    /// let a = Matrix::new(&buf, "(256,64):(_1,256)".parse().unwrap()); // column-major
    /// assert_eq!(a.data.len(), 256 * 64);
    /// ```
    pub fn new(data: &'a CudaSlice<T>, layout: Layout) -> Self {
        Matrix {
            data,
            layout,
            offset: 0,
        }
    }

    /// The matrix `layout` in `data` from element `offset` (a view that does not start at the buffer's
    /// start, as a framework's tensor with a start offset). The layout's span is checked against the
    /// elements from `offset` on; the offset's byte address decides the alignment like any pointer's.
    ///
    /// ```no_run
    /// use cute_gpu::matmul::Matrix;
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let buf = stream.alloc_zeros::<half::f16>(2 * 128 * 64).unwrap();
    /// let second = Matrix::at(&buf, "(128,64):(64,_1)".parse().unwrap(), 128 * 64); // the second of two matrices
    /// assert_eq!(second.offset, 8192);
    /// ```
    pub fn at(data: &'a CudaSlice<T>, layout: Layout, offset: usize) -> Self {
        Matrix {
            data,
            layout,
            offset,
        }
    }

    /// The device address of coordinate 0 and the bytes from there to the buffer's end, given the
    /// buffer's address `ptr`; an offset past the buffer's end is an error naming both.
    fn start(&self, name: &str, ptr: u64) -> Result<(u64, usize)> {
        let len = self.data.len();
        if self.offset > len {
            return Err(GpuError::Config {
                kernel: "matmul",
                reason: format!(
                    "{name}: offset {} elements is past the end of its buffer of {len} elements",
                    self.offset
                ),
            });
        }
        let size = std::mem::size_of::<T>();
        Ok((
            ptr + (self.offset * size) as u64,
            (len - self.offset) * size,
        ))
    }
}

/// The output operand.
///
/// ```no_run
/// use cute_gpu::matmul::MatrixMut;
/// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
/// let mut buf = stream.alloc_zeros::<f32>(128 * 256).unwrap();
/// let d = MatrixMut::new(&mut buf, "(128,256):(256,_1)".parse().unwrap());
/// assert_eq!(d.layout.to_string(), "(128,256):(256,_1)");
/// ```
pub struct MatrixMut<'a, T> {
    /// The buffer.
    pub data: &'a mut CudaSlice<T>,
    /// `(rows, columns[, batch]) : (strides)`.
    pub layout: Layout,
}

impl<'a, T> MatrixMut<'a, T> {
    /// The matrix `layout` in `data`.
    ///
    /// ```no_run
    /// use cute_gpu::matmul::MatrixMut;
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let mut buf = stream.alloc_zeros::<half::bf16>(128 * 256).unwrap();
    /// let d = MatrixMut::new(&mut buf, "(128,256):(_1,128)".parse().unwrap()); // column-major D
    /// assert_eq!(d.data.len(), 128 * 256);
    /// ```
    pub fn new(data: &'a mut CudaSlice<T>, layout: Layout) -> Self {
        MatrixMut { data, layout }
    }
}

/// A bias vector: one value per row (`BiasKind::PerRow`, M values) or per column (`PerColumn`, N values)
/// of D, of D's element type.
///
/// ```no_run
/// use cute_gpu::matmul::{Bias, BiasKind};
/// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
/// let values = stream.clone_htod(&vec![0.5f32; 256]).unwrap(); // N = 256 columns
/// let bias = Bias { data: &values, per: BiasKind::PerColumn };
/// assert_eq!(bias.data.len(), 256);
/// ```
pub struct Bias<'a, O> {
    /// The values.
    pub data: &'a CudaSlice<O>,
    /// Per row or per column of D.
    pub per: BiasKind,
}

/// The epilogue of a GEMM call: `D = act(alpha * A·B + beta * C + bias)`.
///
/// ```
/// use cute_gpu::matmul::{Activation, Epilogue};
/// let e = Epilogue::<f32> { alpha: 2.0, beta: 0.0, bias: None, activation: Activation::Relu };
/// assert!(e.bias.is_none() && e.activation == Activation::Relu);
/// ```
pub struct Epilogue<'a, O> {
    /// alpha.
    pub alpha: f32,
    /// beta (C is read only when it is not 0).
    pub beta: f32,
    /// An optional bias.
    pub bias: Option<Bias<'a, O>>,
    /// The activation applied last.
    pub activation: Activation,
}

impl<O> Epilogue<'_, O> {
    /// The fused op of this epilogue (bias kind and activation; `scale` is decided by the plan).
    fn op(&self) -> EpilogueOp {
        EpilogueOp {
            bias: self.bias.as_ref().map_or(BiasKind::None, |b| b.per),
            activation: self.activation,
            scale: false,
        }
    }
}

/// A GEMM handle on a stream: the runtime (compile cache) and the plans of the requests seen so far.
///
/// ```no_run
/// use cute_gpu::matmul::{Gemm, Matrix, MatrixMut};
/// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
/// let a = stream.clone_htod(&vec![half::f16::from_f32(1.0); 128 * 64]).unwrap();
/// let b = stream.clone_htod(&vec![half::f16::from_f32(2.0); 64 * 256]).unwrap();
/// let mut d = stream.alloc_zeros::<f32>(128 * 256).unwrap();
/// let gemm = Gemm::new(&stream).unwrap();
/// let (a, b) = (Matrix::new(&a, "(128,64):(64,_1)".parse().unwrap()), Matrix::new(&b, "(64,256):(_1,64)".parse().unwrap()));
/// let mut d = MatrixMut::new(&mut d, "(128,256):(256,_1)".parse().unwrap());
/// gemm.run(&a, &b, None, &mut d, 1.0, 0.0).unwrap(); // the second call of this shape reuses the plan
/// ```
pub struct Gemm {
    rt: Runtime,
    plans: Mutex<HashMap<u64, Vec<Arc<Entry>>>>,
    mma_sync_only: bool,
    tuner: Option<(String, Mutex<TuneTable>)>,
    fp8_plans: Mutex<HashMap<fp8::Fp8Key, Arc<fp8::Fp8Entry>>>,
    /// The split-K plans' f32 workspace (grown on demand, used on the handle's stream only).
    workspace: Mutex<Option<CudaSlice<f32>>>,
    /// The stream-K kernels' workspace: zero flags, then partial sums (grown on demand, zeroed when
    /// allocated; the kernels leave the flags zero).
    stream_k: Mutex<Option<CudaSlice<f32>>>,
    /// The counters of split-K summed in the GEMM (`SKF`, [`crate::piece::split_sum`]): zeroed when
    /// allocated, left zero by the kernels.
    split_flags: Mutex<Option<CudaSlice<f32>>>,
    /// How persistent SM90 kernels divide the work ([`Gemm::with_decomposition`]).
    decomposition: Decomposition,
}

/// The device addresses and sizes of one call's buffers (A, B, C, D, bias) and the element sizes.
struct Bound {
    ptrs: [(u64, usize); 4],
    bias: (u64, usize),
    sizes: [i64; 4],
}

/// A workspace as a kernel binds it: address and bytes.
type Workspace = Option<(u64, usize)>;

/// The buffers of batch `l` of `plan`, in the order its kernel binds them: the workspace is split-K's
/// `W` (or, in two launches, the slices the GEMM writes as its `D`) and stream-K's `SK`; `flags` split-K's
/// counters `SKF`.
fn buffers(
    plan: &Plan,
    bound: &Bound,
    l: i64,
    (workspace, flags): (Workspace, Workspace),
) -> Result<Vec<RawBuffer>> {
    let two_launches = plan.split_k.as_ref().is_some_and(|s| s.reduce.is_some());
    named(&plan.kernel, plan, bound, l, |name| match name {
        "D" if two_launches => workspace,
        "W" | "SK" => workspace,
        "SKF" => flags,
        _ => None,
    })
}

/// The buffers of `plan`'s split-K reduction `reduce`: the workspace `W`, and C, D, bias of the call.
fn reduce_buffers(
    plan: &Plan,
    reduce: &crate::kernel::Kernel,
    bound: &Bound,
    workspace: (u64, usize),
) -> Result<Vec<RawBuffer>> {
    named(reduce, plan, bound, 0, |name| {
        (name == "W").then_some(workspace)
    })
}

/// `kernel`'s buffers of batch `l`: `own` first, then A, B, C, D, bias of the call.
fn named(
    kernel: &crate::kernel::Kernel,
    plan: &Plan,
    bound: &Bound,
    l: i64,
    own: impl Fn(&str) -> Option<(u64, usize)>,
) -> Result<Vec<RawBuffer>> {
    let at = |i: usize| {
        let (p, len) = bound.ptrs[i];
        let off = (l * plan.batch_strides[i] * bound.sizes[i]) as usize;
        (p + off as u64, len.saturating_sub(off))
    };
    let (mut x, mut y) = (at(0), at(1));
    if plan.batch.swapped {
        std::mem::swap(&mut x, &mut y);
    }
    let (cb, db) = (at(2), at(3));
    kernel
        .buffers
        .iter()
        .map(|b| match (own(&b.name), b.name.as_str()) {
            (Some(buffer), _) => Ok(buffer),
            (None, "A") => Ok(x),
            (None, "B") => Ok(y),
            (None, "C") => Ok(cb),
            (None, "D") => Ok(db),
            (None, "bias") => Ok(bound.bias),
            (None, other) => Err(GpuError::Config {
                kernel: "matmul",
                reason: format!("{}: unknown buffer {other}", kernel.name),
            }),
        })
        .map(|r| r.map(|(p, n)| RawBuffer::new(p, n)))
        .collect()
}

/// What a plan depends on: the layouts, types, scalars, alignment.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct PlanKey {
    layouts: [Layout; 3],
    c: Option<Layout>,
    types: (DType, DType),
    scalars: (u32, u32),
    aligned: [bool; 4],
    op: EpilogueOp,
}

/// A planned request: its key, the plan, its loaded kernel, the bytes each operand's layout spans, and
/// the last binding (reused when the same buffers come again, so the tensor maps are not encoded again).
struct Entry {
    key: PlanKey,
    /// Bytes the layouts of A, B, C (0 without C) and D span.
    needed: [usize; 4],
    plan: Plan,
    loaded: Arc<LoadedKernel>,
    last: Mutex<LastBinding>,
    /// A split-K plan's reduction kernel and its last binding.
    reduce: Option<(Arc<LoadedKernel>, Mutex<LastBinding>)>,
}

/// The buffers of a kernel's last launch and their binding.
type LastBinding = Option<(Vec<RawBuffer>, Arc<Prepared>)>;

impl Gemm {
    /// A handle launching on `stream`.
    ///
    /// ```no_run
    /// use cute_gpu::matmul::Gemm;
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().new_stream().unwrap();
    /// let gemm = Gemm::new(&stream).unwrap();
    /// assert!(std::sync::Arc::ptr_eq(gemm.runtime().stream(), &stream));
    /// ```
    pub fn new(stream: &Arc<CudaStream>) -> Result<Gemm> {
        Ok(Gemm {
            rt: Runtime::with_stream(stream.clone())?,
            plans: Mutex::new(HashMap::new()),
            mma_sync_only: false,
            tuner: None,
            fp8_plans: Mutex::new(HashMap::new()),
            workspace: Mutex::new(None),
            stream_k: Mutex::new(None),
            split_flags: Mutex::new(None),
            decomposition: Decomposition::Heuristic,
        })
    }

    /// The same handle with persistent SM90 kernels dividing the work as `decomposition` says (whole
    /// tiles, stream-K, or the heuristic's choice, the default), for measuring one against the other.
    ///
    /// ```no_run
    /// use cute_gpu::matmul::{Gemm, plan::Decomposition};
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let tiles = Gemm::new(&stream).unwrap().with_decomposition(Decomposition::Tiles);
    /// ```
    pub fn with_decomposition(mut self, decomposition: Decomposition) -> Gemm {
        self.decomposition = decomposition;
        self
    }

    /// The same handle launching its SM90 kernels with programmatic dependent launch or not (on by
    /// default on SM90): with it, a call's CTAs launch and set up while the kernel before it in the
    /// stream finishes, and wait for it before they touch memory
    /// ([`crate::runtime::Runtime::set_dependent_launch`]).
    ///
    /// ```no_run
    /// use cute_gpu::matmul::Gemm;
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let serialized = Gemm::new(&stream).unwrap().with_dependent_launch(false);
    /// ```
    pub fn with_dependent_launch(mut self, on: bool) -> Gemm {
        self.rt.set_dependent_launch(on);
        self
    }

    /// The same handle with the autotuner on: the first call of a request class times every kernel the
    /// heuristic chooses among (on the call's own buffers, with a progress line when stderr is a
    /// terminal) and keeps the fastest; the choice persists on disk ([`super::tune`]) for later
    /// processes. Calls that update D in place (`c = None`, beta != 0) are not tuned.
    ///
    /// ```no_run
    /// use cute_gpu::matmul::{Gemm, Matrix, MatrixMut};
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let a = stream.clone_htod(&vec![half::f16::from_f32(1.0); 128 * 64]).unwrap();
    /// let b = stream.clone_htod(&vec![half::f16::from_f32(2.0); 64 * 256]).unwrap();
    /// let mut d = stream.alloc_zeros::<f32>(128 * 256).unwrap();
    /// let gemm = Gemm::new(&stream).unwrap().autotune().unwrap();
    /// let (a, b) = (Matrix::new(&a, "(128,64):(64,_1)".parse().unwrap()), Matrix::new(&b, "(64,256):(_1,64)".parse().unwrap()));
    /// let mut d = MatrixMut::new(&mut d, "(128,256):(256,_1)".parse().unwrap());
    /// gemm.run(&a, &b, None, &mut d, 1.0, 0.0).unwrap(); // first call of the class: times the candidates
    /// ```
    pub fn autotune(mut self) -> Result<Gemm> {
        let device = self.rt.device_name()?;
        self.tuner = Some((device, Mutex::new(TuneTable::from_env())));
        Ok(self)
    }

    /// The same handle restricted to the `mma.sync` and fallback paths (what sm_80/86/89 GPUs run), for
    /// measuring them on a Hopper GPU.
    ///
    /// ```no_run
    /// use cute_gpu::matmul::{Gemm, Matrix, MatrixMut};
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let a = stream.clone_htod(&vec![half::f16::from_f32(1.0); 128 * 64]).unwrap();
    /// let b = stream.clone_htod(&vec![half::f16::from_f32(2.0); 64 * 256]).unwrap();
    /// let mut d = stream.alloc_zeros::<f32>(128 * 256).unwrap();
    /// let gemm = Gemm::new(&stream).unwrap().mma_sync_only();
    /// let (a, b) = (Matrix::new(&a, "(128,64):(64,_1)".parse().unwrap()), Matrix::new(&b, "(64,256):(_1,64)".parse().unwrap()));
    /// let mut d = MatrixMut::new(&mut d, "(128,256):(256,_1)".parse().unwrap());
    /// gemm.run(&a, &b, None, &mut d, 1.0, 0.0).unwrap(); // the SM80 kernel, even on an H100
    /// ```
    pub fn mma_sync_only(mut self) -> Gemm {
        self.mma_sync_only = true;
        self
    }

    /// The architecture kernels are planned for: the device's, or `sm_80` with [`Gemm::mma_sync_only`].
    fn target_arch(&self) -> &str {
        if self.mma_sync_only {
            "sm_80"
        } else {
            self.rt.arch()
        }
    }

    /// The runtime (architecture, SM count, compile cache).
    ///
    /// ```no_run
    /// use cute_gpu::matmul::Gemm;
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let gemm = Gemm::new(&stream).unwrap();
    /// println!("{} with {} SMs", gemm.runtime().arch(), gemm.runtime().sm_count());
    /// ```
    pub fn runtime(&self) -> &Runtime {
        &self.rt
    }

    fn lock<T>(m: &Mutex<T>) -> Result<std::sync::MutexGuard<'_, T>> {
        m.lock().map_err(|_| GpuError::Driver {
            call: "plan cache".into(),
            detail: "lock poisoned".into(),
        })
    }

    fn key_of(r: &Request) -> PlanKey {
        PlanKey {
            layouts: [r.a.clone(), r.b.clone(), r.d.clone()],
            c: r.c.cloned(),
            types: (r.input, r.output),
            scalars: (r.alpha.to_bits(), r.beta.to_bits()),
            aligned: r.aligned,
            op: r.op,
        }
    }

    /// The hash of a request's key, computed on borrowed layouts (no clone on the hot path).
    fn hash_of(r: &Request) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (r.a, r.b, r.d, r.c).hash(&mut h);
        (
            r.input,
            r.output,
            r.alpha.to_bits(),
            r.beta.to_bits(),
            r.aligned,
        )
            .hash(&mut h);
        h.finish()
    }

    fn matches(k: &PlanKey, r: &Request) -> bool {
        k.layouts[0] == *r.a
            && k.layouts[1] == *r.b
            && k.layouts[2] == *r.d
            && k.c.as_ref() == r.c
            && k.types == (r.input, r.output)
            && k.scalars == (r.alpha.to_bits(), r.beta.to_bits())
            && k.aligned == r.aligned
            && k.op == r.op
    }

    fn entry(&self, r: &Request, sizes: [usize; 2], bound: &Bound) -> Result<Option<Arc<Entry>>> {
        let hash = Self::hash_of(r);
        if let Some(found) = Self::lock(&self.plans)?
            .get(&hash)
            .and_then(|v| v.iter().find(|e| Self::matches(&e.key, r)))
        {
            return Ok(Some(found.clone()));
        }
        let tune = self
            .tuner
            .as_ref()
            .filter(|_| r.c.is_some() || r.beta == 0.0);
        let planned = match tune {
            Some((device, table)) => self.tuned(r, device, table, bound)?,
            None => plan(r)?,
        };
        let Some(plan) = planned else {
            return Ok(None);
        };
        let span = Span::needed_bytes;
        let needed = [
            span(r.a, sizes[0])?,
            span(r.b, sizes[0])?,
            r.c.map_or(Ok(0), |c| span(c, sizes[1]))?,
            span(r.d, sizes[1])?,
        ];
        let loaded = self.rt.load(&plan.kernel)?;
        let reduce = match plan.split_k.as_ref().and_then(|s| s.reduce.as_ref()) {
            Some(reduce) => Some((self.rt.load(reduce)?, Mutex::new(None))),
            None => None,
        };
        let entry = Arc::new(Entry {
            key: Self::key_of(r),
            needed,
            plan,
            loaded,
            last: Mutex::new(None),
            reduce,
        });
        Self::lock(&self.plans)?
            .entry(hash)
            .or_default()
            .push(entry.clone());
        Ok(Some(entry))
    }

    /// The fastest of the heuristic's alternatives for `r` on the call's buffers (or the recorded choice).
    fn tuned(
        &self,
        r: &Request,
        device: &str,
        table: &Mutex<TuneTable>,
        bound: &Bound,
    ) -> Result<Option<Plan>> {
        let mut alts = alternatives(r)?;
        if alts.len() <= 1 {
            return Ok(alts.pop());
        }
        let key = class_key(device, r);
        let known = Self::lock(table)?.choice(&key).map(str::to_string);
        if let Some(i) = known.and_then(|name| alts.iter().position(|p| p.id() == name)) {
            return Ok(Some(alts.swap_remove(i)));
        }
        let tty = std::io::stderr().is_terminal();
        // CUTE_AUTOTUNE_LOG: every alternative's time on stderr (what the tuner compared)
        let log = std::env::var_os("CUTE_AUTOTUNE_LOG").is_some();
        let rounds = super::tune::tuner_rounds();
        let class = key.rsplit('|').next().unwrap_or_default().to_string();
        let mut times = vec![Vec::with_capacity(rounds); alts.len()];
        for round in 0..rounds {
            for (i, p) in alts.iter().enumerate() {
                if tty {
                    let n = alts.len();
                    eprint!("\rcute autotune [{}/{n}] {:<72}", round * n + i + 1, p.id());
                }
                let ms = self.tuner_sample(p, bound)?;
                if log {
                    let (input, id) = (r.input.name(), p.id());
                    eprintln!("cute autotune {class} {input}: {id} {ms:.4} ms");
                }
                times[i].push(ms);
            }
        }
        let medians: Vec<f64> = times
            .iter()
            .map(|t| crate::runtime::bench::median(t))
            .collect();
        let (best_ms, best) = medians
            .iter()
            .copied()
            .zip(0..)
            .fold((f64::INFINITY, 0), |b, m| if m.0 < b.0 { m } else { b });
        if log && rounds > 1 {
            for (p, ms) in alts.iter().zip(&medians) {
                let id = p.id();
                eprintln!(
                    "cute autotune {class} {}: {id} median of {rounds}: {ms:.4} ms",
                    r.input.name()
                );
            }
        }
        if tty {
            eprintln!("\rcute autotune: {} ({best_ms:.3} ms)", alts[best].id());
        }
        Self::lock(table)?.record(&key, &alts[best].id())?;
        Ok(Some(alts.swap_remove(best)))
    }

    /// One timed sample of `p` on the call's buffers ([`Self::tuner_ms`]), its workspaces bound for it.
    fn tuner_sample(&self, p: &Plan, bound: &Bound) -> Result<f64> {
        let (mut workspace, mut flags) = (self.workspace(p)?, self.split_flags(p)?);
        let ws = workspace_binding(workspace.as_deref_mut(), self.rt.stream());
        let fl = workspace_binding(flags.as_deref_mut(), self.rt.stream());
        let bound_ws = (ws.as_ref().map(|w| w.0), fl.as_ref().map(|f| f.0));
        let prepared = self.prepare_call(p, bound, bound_ws)?;
        self.tuner_ms(|| prepared.iter().try_for_each(|x| self.rt.run(x)))
    }

    /// The tuner's time of one call (ms): calls for about [`TUNER_SAMPLE_MS`] (5 to 200 of them, from
    /// one timed call after a warm-up), timed after as many untimed ones of the same call
    /// ([`crate::runtime::bench::settled_ms`]): a short sample right after another kernel measures how
    /// the clock recovers from that kernel more than this one (sessions 9-10: up to 8 % between two
    /// identical kernels), and the alternatives the tuner weighs are often within 2-3 % of each other.
    fn tuner_ms<F: FnMut() -> Result<()>>(&self, mut call: F) -> Result<f64> {
        let once = self.rt.time_ms(1, 1, &mut call)?;
        let calls = (TUNER_SAMPLE_MS / once.max(1e-3)).ceil().clamp(5.0, 200.0) as usize;
        crate::runtime::bench::settled_ms(&self.rt, calls, call)
    }

    /// Every launch of one call of `p` (one, one per batch, or split-K's two), bound for the tuner's
    /// timing, so that batched and split kernels compare fairly.
    fn prepare_call(
        &self,
        p: &Plan,
        bound: &Bound,
        ws: (Workspace, Workspace),
    ) -> Result<Vec<Prepared>> {
        let loaded = self.rt.load(&p.kernel)?;
        let mut prepared = (0..p.launches)
            .map(|l| {
                self.rt
                    .bind_kernel(&p.kernel, loaded.clone(), &buffers(p, bound, l, ws)?)
            })
            .collect::<Result<Vec<_>>>()?;
        let reduce = p.split_k.as_ref().and_then(|s| s.reduce.as_ref());
        if let (Some(reduce), Some(w)) = (reduce, ws.0) {
            let loaded = self.rt.load(reduce)?;
            let bufs = reduce_buffers(p, reduce, bound, w)?;
            prepared.push(self.rt.bind_kernel(reduce, loaded, &bufs)?);
        }
        Ok(prepared)
    }

    /// The workspace of a split-K plan (its slices) or of a stream-K kernel ([`Gemm::stream_k_workspace`]),
    /// grown to what it needs; `None` for any other plan.
    fn workspace(&self, p: &Plan) -> Result<Option<MutexGuard<'_, Option<CudaSlice<f32>>>>> {
        let Some(split) = &p.split_k else {
            return self.stream_k_workspace(&p.kernel);
        };
        self.grown(&self.workspace, split.workspace_elems).map(Some)
    }

    /// The counters of a split-K plan summed in its GEMM (its buffer `SKF`), grown to what it needs;
    /// `None` for any other plan.
    fn split_flags(&self, p: &Plan) -> Result<Option<MutexGuard<'_, Option<CudaSlice<f32>>>>> {
        match p.kernel.buffers.iter().find(|b| b.name == "SKF") {
            Some(f) => self.grown(&self.split_flags, f.bytes as i64 / 4).map(Some),
            None => Ok(None),
        }
    }

    /// The workspace of a stream-K kernel (its buffer `SK`: flags and partial sums, a buffer of its own,
    /// whose flags only stream-K kernels touch), grown to what it needs; `None` for other kernels.
    pub(super) fn stream_k_workspace(
        &self,
        kernel: &crate::kernel::Kernel,
    ) -> Result<Option<MutexGuard<'_, Option<CudaSlice<f32>>>>> {
        match kernel.buffers.iter().find(|b| b.name == "SK") {
            Some(sk) => self.grown(&self.stream_k, sk.bytes as i64 / 4).map(Some),
            None => Ok(None),
        }
    }

    /// `buffer` locked, holding at least `elems` f32 (a new one zeroed when it was smaller).
    fn grown<'a>(
        &self,
        buffer: &'a Mutex<Option<CudaSlice<f32>>>,
        elems: i64,
    ) -> Result<MutexGuard<'a, Option<CudaSlice<f32>>>> {
        let mut ws = Self::lock(buffer)?;
        let elems = usize::try_from(elems).unwrap_or(usize::MAX);
        if ws.as_ref().is_none_or(|w| w.len() < elems) {
            *ws = None; // free the smaller one first
            let grown = self.rt.stream().alloc_zeros::<f32>(elems);
            *ws = Some(grown.map_err(crate::error::driver("GEMM workspace alloc"))?);
        }
        Ok(ws)
    }

    /// Every launch of one call of `e`: one per batch, or split-K's GEMM into the workspace and its
    /// reduction.
    fn launch_call(&self, e: &Entry, bound: &Bound) -> Result<()> {
        let (mut workspace, mut flags) = (self.workspace(&e.plan)?, self.split_flags(&e.plan)?);
        let ws = workspace_binding(workspace.as_deref_mut(), self.rt.stream());
        let fl = workspace_binding(flags.as_deref_mut(), self.rt.stream());
        let (w, f) = (ws.as_ref().map(|w| w.0), fl.as_ref().map(|f| f.0));
        for l in 0..e.plan.launches {
            let bufs = buffers(&e.plan, bound, l, (w, f))?;
            self.launch_bound(&e.plan.kernel, &e.loaded, &e.last, bufs)?;
        }
        let reduce = e.plan.split_k.as_ref().and_then(|s| s.reduce.as_ref());
        if let (Some(reduce), Some((loaded, last)), Some(w)) = (reduce, &e.reduce, w) {
            let bufs = reduce_buffers(&e.plan, reduce, bound, w)?;
            self.launch_bound(reduce, loaded, last, bufs)?;
        }
        Ok(())
    }

    /// Launches `kernel` on `buffers`, reusing the binding in `last` when the buffers are the same (the
    /// tensor maps are not encoded again).
    fn launch_bound(
        &self,
        kernel: &crate::kernel::Kernel,
        loaded: &Arc<LoadedKernel>,
        last: &Mutex<LastBinding>,
        buffers: Vec<RawBuffer>,
    ) -> Result<()> {
        let mut last = Self::lock(last)?;
        let prepared = match &*last {
            Some((b, p)) if *b == buffers => p.clone(),
            _ => {
                let p = Arc::new(self.rt.bind_kernel(kernel, loaded.clone(), &buffers)?);
                *last = Some((buffers, p.clone()));
                p
            }
        };
        self.rt.run(&prepared)
    }

    /// `D = alpha * A·B + beta * C` (C = D when `c` is `None`), asynchronously on the handle's stream.
    /// Bad input (shapes that do not agree, a buffer shorter than its layout's span, D overlapping an
    /// input) is an error before any launch.
    ///
    /// ```no_run
    /// use cute_gpu::matmul::{Gemm, Matrix, MatrixMut};
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let a = stream.clone_htod(&vec![half::f16::from_f32(1.0); 128 * 64]).unwrap();
    /// let b = stream.clone_htod(&vec![half::f16::from_f32(2.0); 64 * 256]).unwrap();
    /// let mut d = stream.alloc_zeros::<f32>(128 * 256).unwrap();
    /// let gemm = Gemm::new(&stream).unwrap();
    /// let (a, b) = (Matrix::new(&a, "(128,64):(64,_1)".parse().unwrap()), Matrix::new(&b, "(64,256):(_1,64)".parse().unwrap()));
    /// let mut d = MatrixMut::new(&mut d, "(128,256):(256,_1)".parse().unwrap());
    /// gemm.run(&a, &b, None::<&Matrix<f32>>, &mut d, 1.0, 0.0).unwrap();
    /// assert_eq!(stream.clone_dtoh(&*d.data).unwrap()[0], 128.0); // 64 products of 1 * 2
    /// let short = Matrix::new(a.data, "(128,65):(65,_1)".parse().unwrap());
    /// assert!(gemm.run(&short, &b, None, &mut d, 1.0, 0.0).is_err()); // K disagrees: no launch
    /// ```
    pub fn run<T: Element, O: Element>(
        &self,
        a: &Matrix<T>,
        b: &Matrix<T>,
        c: Option<&Matrix<O>>,
        d: &mut MatrixMut<O>,
        alpha: f32,
        beta: f32,
    ) -> Result<()> {
        let epilogue = Epilogue {
            alpha,
            beta,
            bias: None,
            activation: Activation::None,
        };
        self.run_fused(a, b, c, d, &epilogue)
    }

    /// `D = act(alpha * A·B + beta * C + bias)` with the bias per row or column of D and the activation
    /// fused into the kernel's epilogue; otherwise as [`Gemm::run`].
    ///
    /// ```no_run
    /// use cute_gpu::matmul::{Activation, Bias, BiasKind, Epilogue};
    /// use cute_gpu::matmul::{Gemm, Matrix, MatrixMut};
    /// let stream = cudarc::driver::CudaContext::new(0).unwrap().default_stream();
    /// let a = stream.clone_htod(&vec![half::f16::from_f32(1.0); 128 * 64]).unwrap();
    /// let b = stream.clone_htod(&vec![half::f16::from_f32(2.0); 64 * 256]).unwrap();
    /// let mut d = stream.alloc_zeros::<f32>(128 * 256).unwrap();
    /// let bias = stream.clone_htod(&vec![-200.0f32; 256]).unwrap();
    /// let gemm = Gemm::new(&stream).unwrap();
    /// let (a, b) = (Matrix::new(&a, "(128,64):(64,_1)".parse().unwrap()), Matrix::new(&b, "(64,256):(_1,64)".parse().unwrap()));
    /// let mut d = MatrixMut::new(&mut d, "(128,256):(256,_1)".parse().unwrap());
    /// let e = Epilogue { alpha: 1.0, beta: 0.0, bias: Some(Bias { data: &bias, per: BiasKind::PerColumn }),
    ///     activation: Activation::Relu };
    /// gemm.run_fused(&a, &b, None, &mut d, &e).unwrap();
    /// assert_eq!(stream.clone_dtoh(&*d.data).unwrap()[0], 0.0); // relu(128 - 200)
    /// ```
    pub fn run_fused<T: Element, O: Element>(
        &self,
        a: &Matrix<T>,
        b: &Matrix<T>,
        c: Option<&Matrix<O>>,
        d: &mut MatrixMut<O>,
        e: &Epilogue<O>,
    ) -> Result<()> {
        let stream = self.rt.stream().clone();
        let (pa, _ga) = a.data.device_ptr(&stream);
        let (pb, _gb) = b.data.device_ptr(&stream);
        let ((pa, a_bytes), (pb, b_bytes)) = (a.start("A", pa)?, b.start("B", pb)?);
        let c_guard = c.map(|c| c.data.device_ptr(&stream));
        let c_start = match (c, &c_guard) {
            (Some(c), Some((p, _))) => Some(c.start("C", *p)?),
            _ => None,
        };
        let bias_guard = e
            .bias
            .as_ref()
            .map(|b| (b.data.device_ptr(&stream), b.data.len()));
        let d_len = d.data.len();
        let (pd, _gd) = d.data.device_ptr_mut(&stream);
        let pc = c_start.map_or(pd, |(p, _)| p);
        let (alpha, beta) = (e.alpha, e.beta);
        let op = e.op();
        let request = Request {
            a: &a.layout,
            b: &b.layout,
            c: c.map(|c| &c.layout),
            d: &d.layout,
            input: T::DTYPE,
            output: O::DTYPE,
            alpha,
            beta,
            arch: self.target_arch(),
            aligned: [pa, pb, pc, pd].map(|p| p % 16 == 0),
            sm_count: self.rt.sm_count(),
            op,
            decomposition: self.decomposition,
        };
        let (ts, os) = (std::mem::size_of::<T>(), std::mem::size_of::<O>());
        let c_len = c_start.map_or(d_len * os, |(_, bytes)| bytes);
        let bound = Bound {
            ptrs: [(pa, a_bytes), (pb, b_bytes), (pc, c_len), (pd, d_len * os)],
            bias: bias_guard
                .as_ref()
                .map_or((0, 0), |((p, _), n)| (*p, n * os)),
            sizes: [
                T::DTYPE.bytes(),
                T::DTYPE.bytes(),
                O::DTYPE.bytes(),
                O::DTYPE.bytes(),
            ],
        };
        let Some(entry) = self.entry(&request, [ts, os], &bound)? else {
            return Ok(());
        };
        let span = |name, (ptr, bytes): (u64, usize), i: usize| Span {
            name,
            ptr,
            bytes,
            needed: entry.needed[i],
        };
        let mut spans = vec![span("A", bound.ptrs[0], 0), span("B", bound.ptrs[1], 1)];
        if c.is_some() {
            spans.push(span("C", bound.ptrs[2], 2));
        }
        spans.push(span("D", bound.ptrs[3], 3));
        check_spans(&spans)?;
        self.launch_call(&entry, &bound)
    }
}

/// The workspace's address and bytes while the returned guard (cudarc's event tracking) lives.
pub(super) fn workspace_binding<'a>(
    ws: Option<&'a mut Option<CudaSlice<f32>>>,
    stream: &'a Arc<CudaStream>,
) -> Option<((u64, usize), impl Drop + 'a)> {
    let slice = ws?.as_mut()?;
    let bytes = slice.len() * 4;
    let (ptr, guard) = slice.device_ptr_mut(stream);
    Some(((ptr, bytes), guard))
}
