//! Transpose through swizzled shared memory: `dst(m,n) = src(m,n)` where `src` is contiguous along
//! `n` (stride `_1` in mode 1) and `dst` along `m` (stride `_1` in mode 0).
//!
//! The plan, by the algebra:
//! - CTA tile `(TM,TN)`: tile `(blockIdx.y, blockIdx.x)` of `logical_divide(src, (TM,TN))`;
//! - load: thread-value layout over the tile's row vectors, `v_in` elements along `n` per access;
//! - store: thread-value layout over the tile's column vectors, `v_out` elements along `m`;
//! - shared memory: `Swizzle<B,M,S> o (TM,TN):(TN,1)`, the swizzle found by [`crate::smem::choose_swizzle`]
//!   so that neither phase has a bank conflict;
//! - predication: a vector is loaded/stored when its first coordinate is inside `(M,N)`
//!   (the vector widths divide the extents, so vectors never straddle the edge).
//!
//! ```
//! use cute_gpu::kernels::transpose::{TransposeSpec, plan_transpose};
//! let l = |s: &str| s.parse().unwrap();
//! let p = plan_transpose(&TransposeSpec::new(l("(1024,512):(512,_1)"), l("(1024,512):(_1,1024)"), 8)).unwrap();
//! assert_eq!((p.v_in, p.v_out, p.conflicts), (2, 2, 0)); // 16-byte vectors of two 8-byte elements
//! ```

use crate::arch::memory::{SMEM_ADDR, Space, global_vector_fns, load_fn, store_fn};
use crate::emit::{Leaf, Params, basis_coord, basis_coord_expr, flat_modes, pattern, swizzle_expr};
use crate::error::{Result, ceil_div, to_u32};
use crate::kernel::{Buffer, Kernel};
use crate::smem::{WarpAccess, choose_swizzle};
use cute_layout_core::{Layout, Swizzle};

/// A transpose problem.
///
/// ```
/// use cute_gpu::kernels::transpose::TransposeSpec;
/// let l = |s: &str| s.parse().unwrap();
/// let spec = TransposeSpec { tile_m: 32, ..TransposeSpec::new(l("(512,256):(256,_1)"), l("(512,256):(_1,512)"), 4) };
/// assert_eq!((spec.tile_m, spec.tile_n, spec.threads), (32, 64, 256));
/// ```
#[derive(Clone, Debug)]
pub struct TransposeSpec {
    /// Source `(M,N):(sM,_1)`.
    pub src: Layout,
    /// Destination `(M,N):(_1,sN)`.
    pub dst: Layout,
    /// Element size in bytes (4 or 8).
    pub elem_bytes: usize,
    /// CTA tile extent along m.
    pub tile_m: i64,
    /// CTA tile extent along n.
    pub tile_n: i64,
    /// Threads per CTA.
    pub threads: i64,
}

impl TransposeSpec {
    /// 64x64 tiles, 256 threads.
    ///
    /// ```
    /// use cute_gpu::kernels::transpose::TransposeSpec;
    /// let l = |s: &str| s.parse().unwrap();
    /// let spec = TransposeSpec::new(l("(512,256):(256,_1)"), l("(512,256):(_1,512)"), 8);
    /// assert_eq!((spec.tile_m, spec.tile_n, spec.threads, spec.elem_bytes), (64, 64, 256, 8));
    /// ```
    pub fn new(src: Layout, dst: Layout, elem_bytes: usize) -> TransposeSpec {
        TransposeSpec {
            src,
            dst,
            elem_bytes,
            tile_m: 64,
            tile_n: 64,
            threads: 256,
        }
    }
}

fn unsupported<T>(reason: String) -> Result<T> {
    crate::error::config("transpose", reason)
}

fn pow2_factor(n: i64) -> i64 {
    if n == 0 {
        1 << 20
    } else {
        n & n.wrapping_neg()
    }
}

/// The generated plan, exposed for tests: vector widths and the chosen swizzle.
///
/// ```
/// use cute_gpu::kernels::transpose::{TransposeSpec, plan_transpose};
/// let l = |s: &str| s.parse().unwrap();
/// let p = plan_transpose(&TransposeSpec::new(l("(512,256):(256,_1)"), l("(512,256):(_1,512)"), 4)).unwrap();
/// assert_eq!((p.conflicts, p.swizzle.to_string().as_str()), (0, "Sw<3,2,6>"));
/// assert!(p.unswizzled_conflicts > 0);
/// ```
#[derive(Clone, Debug)]
pub struct TransposePlan {
    /// Elements per global load (along n).
    pub v_in: i64,
    /// Elements per global store (along m).
    pub v_out: i64,
    /// Shared-memory swizzle (on element offsets).
    pub swizzle: Swizzle,
    /// Bank conflicts of the chosen layout (0 when the search succeeded).
    pub conflicts: usize,
    /// Bank conflicts of the plain row-major tile, for comparison.
    pub unswizzled_conflicts: usize,
}

#[derive(Clone, Copy)]
struct Geometry {
    tm: i64,
    tn: i64,
    t: i64,
    e: i64,
    v_in: i64,
    v_out: i64,
    /// Column vectors a group of consecutive threads walks down one column before moving to the
    /// next column (the store thread layout's first mode).
    group: i64,
}

impl Geometry {
    /// Load phase: vector index q -> (m, n) in the tile, `(_{TN/vin},_{TM}):(_{vin}@1,_1@0)`: consecutive
    /// threads read consecutive vectors of a row.
    fn load_layout(&self) -> Result<Layout> {
        Ok(format!(
            "(_{},_{}):(_{}@1,_1@0)",
            self.tn / self.v_in,
            self.tm,
            self.v_in
        )
        .parse()?)
    }
    /// Store phase: vector index q -> (m, n), `(_{G},_{TN},_{TM/vout/G}):(_{vout}@0,_1@1,_{G*vout}@0)`: a
    /// group of G threads walks down a column, then the next column.
    fn store_layout(&self) -> Result<Layout> {
        let (g, vo) = (self.group, self.v_out);
        let rest = (self.tm / vo / g).max(1);
        Ok(format!("(_{g},_{},_{rest}):(_{vo}@0,_1@1,_{}@0)", self.tn, g * vo).parse()?)
    }
    /// The (m, n) of every vector of both phases, evaluated once from the layouts.
    fn coords(&self) -> Result<[Vec<[i64; 2]>; 2]> {
        let (load, store) = (self.load_layout()?, self.store_layout()?);
        let n_in = self.tm * self.tn / self.v_in;
        let n_out = self.tm * self.tn / self.v_out;
        Ok([
            (0..n_in)
                .map(|q| basis_coord(&load, q))
                .collect::<Result<_>>()?,
            (0..n_out)
                .map(|q| basis_coord(&store, q))
                .collect::<Result<_>>()?,
        ])
    }
    fn accesses(&self, coords: &[Vec<[i64; 2]>; 2], f: &dyn Fn(i64) -> i64) -> Vec<WarpAccess> {
        let mut out = Vec::new();
        let il = self.tm * self.tn / self.v_in / self.t;
        let is = self.tm * self.tn / self.v_out / self.t;
        for warp in 0..self.t / 32 {
            for i in 0..il {
                let addrs = (0..32)
                    .map(|l| {
                        let [m, n] = coords[0][(warp * 32 + l + i * self.t) as usize];
                        f(m * self.tn + n) * self.e
                    })
                    .collect();
                out.push(WarpAccess {
                    addrs,
                    width: self.v_in * self.e,
                });
            }
            for i in 0..is {
                for k in 0..self.v_out {
                    let addrs = (0..32)
                        .map(|l| {
                            let [m, n] = coords[1][(warp * 32 + l + i * self.t) as usize];
                            f((m + k) * self.tn + n) * self.e
                        })
                        .collect();
                    out.push(WarpAccess {
                        addrs,
                        width: self.e,
                    });
                }
            }
        }
        out
    }
}

/// Plans the transpose: vector widths from the layouts, swizzle from the bank search.
///
/// ```
/// use cute_gpu::kernels::transpose::{TransposeSpec, plan_transpose};
/// let l = |s: &str| s.parse().unwrap();
/// let p = plan_transpose(&TransposeSpec::new(l("(512,256):(256,_1)"), l("(512,256):(_1,512)"), 4)).unwrap();
/// assert_eq!((p.v_in, p.v_out), (4, 4)); // 16-byte f32 vectors both ways
/// ```
pub fn plan_transpose(spec: &TransposeSpec) -> Result<TransposePlan> {
    Ok(plan(spec)?.0)
}

#[allow(clippy::type_complexity)]
fn plan(spec: &TransposeSpec) -> Result<(TransposePlan, Geometry, [Leaf; 4])> {
    let e = spec.elem_bytes as i64;
    if e != 4 && e != 8 {
        return unsupported(format!(
            "transpose of {e}-byte elements (4 and 8 are generated)"
        ));
    }
    let src = flat_modes(&spec.src)?;
    let dst = flat_modes(&spec.dst)?;
    if src.len() != 2 || dst.len() != 2 {
        return unsupported(format!(
            "transpose needs rank-2 flat layouts, got {} and {}",
            spec.src, spec.dst
        ));
    }
    if src[0].0 != dst[0].0 || src[1].0 != dst[1].0 {
        return unsupported(format!(
            "src {} and dst {} have different shapes",
            spec.src, spec.dst
        ));
    }
    if !src[1].1.is_static_eq(1) || !dst[0].1.is_static_eq(1) {
        return unsupported(format!(
            "transpose expects src (M,N):(sM,_1) and dst (M,N):(_1,sN); got {} and {}",
            spec.src, spec.dst
        ));
    }
    let (tm, tn, t) = (spec.tile_m, spec.tile_n, spec.threads);
    if tm <= 0 || tn <= 0 || (tm & (tm - 1)) != 0 || (tn & (tn - 1)) != 0 || t % 32 != 0 || t <= 0 {
        return unsupported(format!(
            "tile {tm}x{tn} with {t} threads (powers of two and whole warps needed)"
        ));
    }
    let (m, n, sm, sn) = (src[0].0, src[1].0, src[0].1, dst[1].1);
    // max_common_vector(src tile, smem tile) along n: the widest power of two that divides the tile,
    // the extent N and the row stride (so every vector is aligned and wholly inside or outside).
    let cap = 16 / e;
    let v_in = cap
        .min(pow2_factor(n.value))
        .min(pow2_factor(sm.value))
        .min(tn);
    let v_out = cap
        .min(pow2_factor(m.value))
        .min(pow2_factor(sn.value))
        .min(tm);
    if (tm * tn / v_in) % t != 0
        || (tm * tn / v_out) % t != 0
        || tm * tn / v_in < t
        || tm * tn / v_out < t
    {
        return unsupported(format!(
            "tile {tm}x{tn} does not split evenly over {t} threads"
        ));
    }
    let base = v_in.trailing_zeros() as i64;
    let tile_log2 = (tm * tn).trailing_zeros() as i64;
    // Store thread layout and swizzle, searched together: the longest column run per thread group
    // (best coalescing) for which some swizzle removes every bank conflict; at least 32 bytes
    // (one sector) per run.
    let mut group = (tm / v_out).min(32);
    let min_group = (32 / (v_out * e)).max(1).min(group);
    let (g, sw, c, unswizzled) = loop {
        let g = Geometry {
            tm,
            tn,
            t,
            e,
            v_in,
            v_out,
            group,
        };
        let coords = g.coords()?;
        let unswizzled = crate::smem::total_conflicts(&g.accesses(&coords, &|x| x));
        let (sw, c) = choose_swizzle(base, tile_log2, |f| g.accesses(&coords, f));
        if c == 0 || group <= min_group {
            break (g, sw, c, unswizzled);
        }
        group /= 2;
    };
    let leaves = [
        Leaf::new(m, "M"),
        Leaf::new(n, "N"),
        Leaf::new(sm, "src_row_stride"),
        Leaf::new(sn, "dst_col_stride"),
    ];
    Ok((
        TransposePlan {
            v_in,
            v_out,
            swizzle: sw,
            conflicts: c,
            unswizzled_conflicts: unswizzled,
        },
        g,
        leaves,
    ))
}

/// The entry point: global -> registers -> swizzled shared tile -> column vectors -> global.
fn body(
    g: &Geometry,
    sw: Swizzle,
    [m, n, sm, sn]: [&Leaf; 4],
    name: &str,
    signature: &str,
) -> Result<String> {
    // vector q -> (m, n) by the load and store layouts
    let mn = |l: Layout| -> Result<String> {
        Ok(format!(
            "    const int m = {}, n = {};  // (m, n) = {l} (q)\n",
            basis_coord_expr(&l, "q", 0)?,
            basis_coord_expr(&l, "q", 1)?
        ))
    };
    let (load_mn, store_mn) = (mn(g.load_layout()?)?, mn(g.store_layout()?)?);
    // predication: a vector is moved when its first coordinate is inside (M, N)
    let inside = format!(
        "    if (m0 + m < {} && n0 + n < {}) {{\n",
        m.expr(),
        n.expr()
    );
    let Geometry {
        tm,
        tn,
        t,
        e,
        v_in,
        v_out,
        group: _,
    } = *g;
    let (il, is) = (tm * tn / v_in / t, tm * tn / v_out / t);
    let words_in = (v_in * e / 4).max(1);
    let ew = e / 4;
    let swz = |x: &str| swizzle_expr(sw, x);
    let mut c = String::new();
    c += &format!(
        "extern \"C\" __global__ void __launch_bounds__({t}) {name}(\n    {}) {{\n",
        signature
    );
    c += &format!(
        "  __shared__ __attribute__((aligned(128))) unsigned int tile[{}];\n",
        tm * tn * ew
    );
    c += "  const unsigned int sbase = smem_u32(tile);\n";
    c += &format!("  const int m0 = blockIdx.y * {tm}, n0 = blockIdx.x * {tn};\n");
    c += &format!("  unsigned int r[{il}][{words_in}];\n");
    c += "  // global -> registers (all loads in flight first)\n";
    c += &format!("  #pragma unroll\n  for (int i = 0; i < {il}; ++i) {{\n");
    c += &format!("    const int q = threadIdx.x + i * {t};\n");
    c += &load_mn;
    c += &inside;
    c += &format!("      // src(m0+m, n0+n) = (m0+m)*{} + (n0+n)\n", sm.expr());
    c += &format!(
        "      ld_global(src + ((long long)(m0 + m) * (long long)({}) + (long long)(n0 + n)) * {e}, r[i]);\n",
        sm.expr()
    );
    c += "    }\n  }\n";
    c += "  // registers -> shared memory at the swizzled offset of (m, n)\n";
    c += &format!("  #pragma unroll\n  for (int i = 0; i < {il}; ++i) {{\n");
    c += &format!("    const int q = threadIdx.x + i * {t};\n");
    c += &load_mn;
    c += &format!("    const int a = m * {tn} + n;\n");
    c += &format!("    st_shared_in(sbase + {} * {e}, r[i]);\n", swz("a"));
    c += "  }\n  __syncthreads();\n";
    c += "  // shared memory -> registers (column vectors) -> global\n";
    c += &format!("  #pragma unroll\n  for (int i = 0; i < {is}; ++i) {{\n");
    c += &format!("    const int q = threadIdx.x + i * {t};\n");
    c += &store_mn;
    c += &format!("    unsigned int w[{}];\n", (v_out * ew).max(1));
    c += &format!("    #pragma unroll\n    for (int k = 0; k < {v_out}; ++k) {{\n");
    c += &format!("      const int a = (m + k) * {tn} + n;\n");
    c += &format!(
        "      ld_shared_elem(sbase + {} * {e}, &w[k * {ew}]);\n",
        swz("a")
    );
    c += "    }\n";
    c += &inside;
    c += &format!("      // dst(m0+m, n0+n) = (m0+m) + (n0+n)*{}\n", sn.expr());
    c += &format!(
        "      st_global_out(dst + ((long long)(m0 + m) + (long long)(n0 + n) * (long long)({})) * {e}, w);\n",
        sn.expr()
    );
    c += "    }\n  }\n}\n";
    Ok(c)
}

/// Generates the transpose kernel.
///
/// ```
/// use cute_gpu::kernels::transpose::{TransposeSpec, generate_transpose};
/// let l = |s: &str| s.parse().unwrap();
/// let k = generate_transpose(&TransposeSpec::new(l("(512,256):(256,_1)"), l("(512,256):(_1,512)"), 4)).unwrap();
/// assert_eq!(k.name, "cute_transpose_e4_64x64_vin4_vout4_t256");
/// assert_eq!((k.grid, k.block), ((4, 8, 1), (256, 1, 1))); // (N/64, M/64) tiles
/// ```
pub fn generate_transpose(spec: &TransposeSpec) -> Result<Kernel> {
    let (pl, g, [m, n, sm, sn]) = plan(spec)?;
    if pl.conflicts != 0 {
        return unsupported(format!(
            "no conflict-free swizzle found (best {} has {} conflicts)",
            pl.swizzle, pl.conflicts
        ));
    }
    let Geometry {
        tm,
        tn,
        t,
        e,
        v_in,
        v_out,
        group,
    } = g;
    let sw = pl.swizzle;
    let mut p = Params::default();
    p.ptr("const unsigned char* __restrict__", "src");
    p.ptr("unsigned char* __restrict__", "dst");
    p.extent(&m)?;
    p.extent(&n)?;
    p.stride(&sm);
    p.stride(&sn);
    let il = tm * tn / v_in / t;
    let is = tm * tn / v_out / t;
    let (bin, bout) = (v_in * e, v_out * e);
    let name = format!("cute_transpose_e{e}_{tm}x{tn}_vin{v_in}_vout{v_out}_t{t}");
    let words_in = (bin / 4).max(1);
    let ew = e / 4;
    let mut c = String::new();
    c += &format!("// Generated by gpu::transpose. dst(m,n) = src(m,n) with {e}-byte elements.\n");
    c += &format!(
        "// src layout: {}\n// dst layout: {}\n// (# = dynamic leaf, passed as a kernel argument)\n",
        pattern(&spec.src),
        pattern(&spec.dst)
    );
    c += &format!(
        "// CTA tile (_{tm},_{tn}): tile (blockIdx.y, blockIdx.x) of logical_divide(src, (_{tm},_{tn}))\n"
    );
    c += &format!(
        "// smem layout: {sw} o (_{tm},_{tn}):(_{tn},_1) (element offsets; bank conflicts: {} swizzled, {} plain)\n",
        pl.conflicts, pl.unswizzled_conflicts
    );
    c += &format!(
        "// load TV layout: (_{t},_{il}):(_1,_{t}) over row vectors, vector q -> (m,n) = (_{},_{tm}):(_{v_in}@1,_1@0); {bin}-byte global loads\n",
        tn / v_in
    );
    c += &format!(
        "// store TV layout: (_{t},_{is}):(_1,_{t}) over column vectors, vector q -> (m,n) = (_{group},_{tn},_{}):(_{v_out}@0,_1@1,_{}@0); {bout}-byte global stores\n",
        tm / v_out / group,
        group * v_out
    );
    c += &global_vector_fns(bin as usize);
    c += &store_fn("st_shared_in", Space::Shared, words_in as usize);
    c += &load_fn("ld_shared_elem", Space::Shared, ew as usize);
    c += &store_fn("st_global_out", Space::Global, (bout / 4) as usize);
    c += SMEM_ADDR;
    c += &body(&g, pl.swizzle, [&m, &n, &sm, &sn], &name, &p.signature())?;
    let gx = to_u32(
        "transpose grid x",
        ceil_div("transpose grid x", n.int.value, tn)?,
    )?;
    let gy = to_u32(
        "transpose grid y",
        ceil_div("transpose grid y", m.int.value, tm)?,
    )?;
    if gy > 65535 {
        return unsupported(format!("{gy} tiles along m exceed gridDim.y"));
    }
    Ok(Kernel {
        name,
        source: c,
        grid: (gx.max(1), gy.max(1), 1),
        persistent: false,
        cluster: 1,
        block: (t as u32, 1, 1),
        dynamic_smem_bytes: 0,
        args: p.args,
        buffers: vec![
            Buffer::for_layout("src", &spec.src, e)?,
            Buffer::for_layout("dst", &spec.dst, e)?,
        ],
        pointer_alignment: bin.max(bout) as usize,
        dependent_launch: false,
    })
}
