//! Tiled copy between two global tensors of any layouts of the same size.
//!
//! The plan, all by the algebra:
//! 1. `v = max_common_vector(src, dst)` elements, capped to 16 bytes: the access width;
//! 2. `zipped_divide(src, v)` and `zipped_divide(dst, v)`: mode 0 is one vector access, mode 1
//!    (flattened, coalesced) maps a vector index to its offset in each tensor;
//! 3. the CTA tile over vector indices is `(threads, unroll):(1, threads)` (thread-value layout), tile
//!    `blockIdx.x` of `zipped_divide(vectors, threads*unroll)`; the last tile is predicated.
//!
//! ```
//! use cute_gpu::kernels::copy::{CopySpec, generate_copy};
//! // a (64,64) f32 tile from row-major to column-major: no common contiguous run, scalar accesses
//! let (src, dst) = ("(_64,_64):(_64,_1)".parse().unwrap(), "(_64,_64):(_1,_64)".parse().unwrap());
//! let k = generate_copy(&CopySpec::new(src, dst, 4)).unwrap();
//! assert_eq!(k.name, "cute_copy_e4_v1_t256_u4");
//! ```

use crate::arch::memory::global_vector_fns;
use crate::emit::{Leaf, Mode, Params, flat_modes, offset_statements, pattern};
use crate::error::{Result, ceil_div, to_u32};
use crate::kernel::{Buffer, Kernel};
use cute_layout_core::{
    Layout, Tiler, coalesce, composition, max_common_layout, size, zipped_divide,
};

/// A copy problem: `dst(i) = src(i)` for every logical index `i`.
///
/// ```
/// use cute_gpu::kernels::copy::CopySpec;
/// let spec = CopySpec { threads: 128, ..CopySpec::new("(64,64):(64,_1)".parse().unwrap(), "(64,64):(_1,64)".parse().unwrap(), 4) };
/// assert_eq!((spec.threads, spec.unroll, spec.elem_bytes), (128, 4, 4));
/// ```
#[derive(Clone, Debug)]
pub struct CopySpec {
    /// Source layout (element offsets).
    pub src: Layout,
    /// Destination layout (element offsets); same size as `src`.
    pub dst: Layout,
    /// Element size in bytes (1, 2, 4, 8 or 16).
    pub elem_bytes: usize,
    /// Threads per CTA.
    pub threads: u32,
    /// Vector accesses per thread (loads are all issued before the stores).
    pub unroll: u32,
}

impl CopySpec {
    /// A copy with 256 threads and 4 vectors per thread.
    ///
    /// ```
    /// use cute_gpu::kernels::copy::CopySpec;
    /// let l: cute_layout_core::Layout = "(1024,1024):(1024,_1)".parse().unwrap();
    /// let spec = CopySpec::new(l.clone(), l, 2);
    /// assert_eq!((spec.threads, spec.unroll), (256, 4));
    /// ```
    pub fn new(src: Layout, dst: Layout, elem_bytes: usize) -> CopySpec {
        CopySpec {
            src,
            dst,
            elem_bytes,
            threads: 256,
            unroll: 4,
        }
    }
}

fn unsupported<T>(reason: String) -> Result<T> {
    crate::error::config("copy", reason)
}

fn leaves(modes: &[Mode], tensor: &str) -> Vec<(Leaf, Leaf)> {
    modes
        .iter()
        .enumerate()
        .map(|(k, (s, d))| {
            (
                Leaf::new(*s, format!("{tensor}_shape{k}")),
                Leaf::new(*d, format!("{tensor}_stride{k}")),
            )
        })
        .collect()
}

/// Largest power of two dividing `n` (n > 0).
fn pow2_factor(n: i64) -> i64 {
    n & n.wrapping_neg()
}

/// The vector accesses of a copy: width, and the vector modes of each tensor.
struct VectorPlan {
    /// `max_common_vector(src, dst)`.
    common: i64,
    /// Elements per access.
    v: i64,
    /// The tiler printed in the header (`_v`, or the common layout's first `v` coordinates).
    tiler_text: String,
    src_rest: Vec<Mode>,
    dst_rest: Vec<Mode>,
}

/// The widest access: a power of two dividing the common vector, at most 16 bytes, at least 4 bytes
/// (sub-word elements fall back to 4-byte vectors only when the common vector allows it).
fn vector_width(common: i64, eb: i64) -> Result<i64> {
    let v = pow2_factor(common).min(16 / eb).max(1);
    if v * eb >= 4 {
        return Ok(v);
    }
    if (4 / eb) <= pow2_factor(common) {
        Ok(4 / eb)
    } else {
        unsupported(format!(
            "{eb}-byte elements with common vector {common}: accesses narrower than 4 bytes are not generated"
        ))
    }
}

/// `R = max_common_layout(src, dst)`: the coordinates on which both layouts are the identity (static
/// leaves only); the vector tiler is the first `v` coordinates of R (`R o _v:_1`), and `zipped_divide` by it
/// gives mode 0 = one contiguous vector `_v:_1` in both tensors and mode 1 = the vectors (same logical
/// order in both, so dst(j) = src(j) vector by vector). Dividing by `_1` changes nothing: skipped.
fn vector_plan(spec: &CopySpec, eb: i64) -> Result<VectorPlan> {
    let common = max_common_layout(&spec.src, &spec.dst)?;
    let mcv = size(&common)?.value;
    let v = vector_width(mcv, eb)?;
    if v == 1 {
        return Ok(VectorPlan {
            common: mcv,
            v,
            tiler_text: "_1".to_string(),
            src_rest: flat_modes(&coalesce(&spec.src)?)?,
            dst_rest: flat_modes(&coalesce(&spec.dst)?)?,
        });
    }
    let unit: Layout = format!("_{v}:_1").parse()?;
    let rv = composition(&common, &unit)?;
    let tiler = Tiler::from(rv.clone());
    let mut rests = Vec::new();
    for l in [&spec.src, &spec.dst] {
        let z = zipped_divide(l, &tiler)?;
        let vec_mode = coalesce(&z.mode(0)?)?;
        if vec_mode != unit {
            return unsupported(format!(
                "zipped_divide({l}, {rv}) mode 0 is {vec_mode}, not a contiguous vector _{v}:_1"
            ));
        }
        rests.push(flat_modes(&coalesce(&z.mode(1)?)?)?);
    }
    let dst_rest = rests.pop().unwrap_or_default();
    let src_rest = rests.pop().unwrap_or_default();
    Ok(VectorPlan {
        common: mcv,
        v,
        tiler_text: if rv == unit {
            format!("_{v}")
        } else {
            rv.to_string()
        },
        src_rest,
        dst_rest,
    })
}

/// Alignment: every static stride of the vector modes must be a multiple of v; dynamic strides are
/// checked against the vector here (their values are known) and the pointers at launch.
fn check_alignment(plan: &VectorPlan) -> Result<()> {
    let v = plan.v;
    for (s, d) in plan.src_rest.iter().chain(&plan.dst_rest) {
        if d.is_static && !s.is_static_eq(1) && d.value % v != 0 {
            return unsupported(format!(
                "stride {d} is not a multiple of the vector {v}: vectors would be misaligned"
            ));
        }
        if !d.is_static && d.value % v != 0 {
            return unsupported(format!(
                "dynamic stride value {} is not a multiple of the vector {v}",
                d.value
            ));
        }
    }
    Ok(())
}

fn check_spec(spec: &CopySpec) -> Result<i64> {
    let eb = spec.elem_bytes as i64;
    if ![1, 2, 4, 8, 16].contains(&eb) {
        return unsupported(format!("element size {eb} bytes"));
    }
    if spec.threads == 0 || spec.threads % 32 != 0 || spec.threads > 1024 || spec.unroll == 0 {
        return unsupported(format!("{} threads x {} unroll", spec.threads, spec.unroll));
    }
    let n = size(&spec.src)?;
    let n_dst = size(&spec.dst)?;
    if n.value != n_dst.value {
        return unsupported(format!(
            "src {} has size {} but dst {} has size {}",
            spec.src, n.value, spec.dst, n_dst.value
        ));
    }
    Ok(n.value)
}

fn fmt_modes(m: &[Mode]) -> String {
    let s: Vec<String> = m.iter().map(|x| x.0.to_string()).collect();
    let d: Vec<String> = m.iter().map(|x| x.1.to_string()).collect();
    format!("({}):({})", s.join(","), d.join(","))
}

/// Generates the copy kernel.
///
/// ```
/// use cute_gpu::kernels::copy::{CopySpec, generate_copy};
/// // static layouts: the contiguous run is known, so 16-byte vectors of 4 f32
/// let l: cute_layout_core::Layout = "(_1024,_1024):(_1024,_1)".parse().unwrap();
/// let k = generate_copy(&CopySpec::new(l.clone(), l, 4)).unwrap();
/// assert_eq!(k.name, "cute_copy_e4_v4_t256_u4");
/// assert_eq!((k.grid, k.block), ((256, 1, 1), (256, 1, 1))); // 2^18 vectors, 1024 per CTA
/// ```
pub fn generate_copy(spec: &CopySpec) -> Result<Kernel> {
    let n = check_spec(spec)?;
    let eb = spec.elem_bytes as i64;
    let plan = vector_plan(spec, eb)?;
    check_alignment(&plan)?;
    let VectorPlan { common: mcv, v, .. } = plan;
    let vb = v * eb;
    let words = (vb / 4) as usize;
    let nvec = n / v;
    let src_l = leaves(&plan.src_rest, "src");
    let dst_l = leaves(&plan.dst_rest, "dst");
    let mut p = Params::default();
    p.ptr("const unsigned char* __restrict__", "src");
    p.ptr("unsigned char* __restrict__", "dst");
    for (s, d) in src_l.iter().chain(&dst_l) {
        p.extent(s)?;
        p.stride(d);
    }
    let nvec_leaf = Leaf::new(
        cute_layout_core::Int::new(nvec, size(&spec.src)?.is_static),
        "nvec",
    );
    p.extent(&nvec_leaf)?;
    let (t, u) = (spec.threads as i64, spec.unroll as i64);
    let tile = t * u;
    let name = format!("cute_copy_e{eb}_v{v}_t{t}_u{u}");

    let mut c = String::new();
    c += &format!(
        "// Generated by gpu::copy. dst(i) = src(i) for i in [0, size) with {eb}-byte elements.\n"
    );
    c += &format!(
        "// src layout: {}\n// dst layout: {}\n// (# = dynamic leaf, passed as a kernel argument)\n",
        pattern(&spec.src),
        pattern(&spec.dst)
    );
    c += &format!("// max_common_vector(src, dst) = {mcv} -> {v} elements = {vb}-byte accesses\n");
    c += &format!(
        "// vector modes, coalesce(zipped_divide(., {}) mode 1): src {}  dst {}\n",
        plan.tiler_text,
        fmt_modes(&plan.src_rest),
        fmt_modes(&plan.dst_rest)
    );
    c += &format!(
        "// CTA tile over vector indices: thread-value layout (_{t},_{u}):(_1,_{t}), tile = blockIdx.x of zipped_divide(vectors, _{tile})\n"
    );
    c += &global_vector_fns(vb as usize);
    c += &format!(
        "extern \"C\" __global__ void __launch_bounds__({t}) {name}(\n    {}) {{\n",
        p.signature()
    );
    c += &format!("  unsigned int r[{u}][{words}];\n");
    c += &format!("  const unsigned int tile0 = blockIdx.x * {tile}u + threadIdx.x;\n");
    c += &format!("  #pragma unroll\n  for (int u = 0; u < {u}; ++u) {{\n");
    c += &format!(
        "    const unsigned int j = tile0 + u * {t}u;  // vector index: TV layout (t, u) -> t + {t}*u\n"
    );
    c += &format!("    if (j < (unsigned int)({})) {{\n", nvec_leaf.expr());
    c += "      // src offset of vector j\n";
    c += &offset_statements("      ", "j", "so", &src_l);
    c += &format!("      ld_global(src + so * {eb}, r[u]);\n    }}\n  }}\n");
    c += &format!("  #pragma unroll\n  for (int u = 0; u < {u}; ++u) {{\n");
    c += &format!("    const unsigned int j = tile0 + u * {t}u;\n");
    c += &format!("    if (j < (unsigned int)({})) {{\n", nvec_leaf.expr());
    c += "      // dst offset of vector j\n";
    c += &offset_statements("      ", "j", "dof", &dst_l);
    c += &format!("      st_global(dst + dof * {eb}, r[u]);\n    }}\n  }}\n}}\n");

    let grid = ceil_div("copy grid", nvec, tile)?.max(1);
    Ok(Kernel {
        name,
        source: c,
        grid: (to_u32("copy grid", grid)?, 1, 1),
        persistent: false,
        cluster: 1,
        block: (spec.threads, 1, 1),
        dynamic_smem_bytes: 0,
        args: p.args,
        buffers: vec![
            Buffer::for_layout("src", &spec.src, eb)?,
            Buffer::for_layout("dst", &spec.dst, eb)?,
        ],
        pointer_alignment: vb as usize,
        dependent_launch: false,
    })
}
