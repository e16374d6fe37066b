//! Layer 2, atoms and tilings: the thread-value layouts the kernels use, all taken from
//! `cute_layout_core::atom` (the same traits the CLI draws) and combined with the algebra. No kernel restates
//! a thread-value layout as text: it asks here.
//!
//! ```
//! use cute_gpu::atom::{ldmatrix_lanes, sm80_mma};
//! use cute_gpu::{DType, Major};
//! use cute_layout_core::atom::Operand;
//! // lane -> (m, k) of the row ldmatrix.x4 reads for the A operand of SM80_16x8x16, K-major tile
//! assert_eq!(ldmatrix_lanes(&sm80_mma(DType::F16).unwrap(), Operand::A, Major::K).unwrap().to_string(),
//!            "(_8,_2,_2):(_1@0,_8@0,_8@1)");
//! ```

use crate::dtype::{DType, Major};
use crate::error::{GpuError, Result};
use cute_layout_core::atom::gmma::gmma_c_layout;
use cute_layout_core::atom::{CopyAtom, MmaTraits, Operand, TiledCopy, TiledMma};
use cute_layout_core::{Int, IntTuple, Layout, ScaledBasis, Tiler, layout_eval};

/// The SM80 `m16n8k16` tensor-core atom with f32 accumulation for `input` (f16 or bf16):
/// `SM80_16x8x16_F32{F16F16|BF16BF16}F32_TN`.
///
/// ```
/// use cute_gpu::{atom::sm80_mma, DType};
/// let mma = sm80_mma(DType::BF16).unwrap();
/// assert_eq!(mma.layout_c.to_string(), "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"); // (thread, value) -> offset in 16x8
/// assert!(sm80_mma(DType::F32).unwrap_err().to_string().contains("takes f16 or bf16 inputs, not f32"));
/// ```
pub fn sm80_mma(input: DType) -> Result<MmaTraits> {
    let ab = match input {
        DType::F16 => "F16F16",
        DType::BF16 => "BF16BF16",
        DType::F32 | DType::E4M3 | DType::E5M2 => {
            return Err(GpuError::Config {
                kernel: "atom",
                reason: format!(
                    "the SM80 m16n8k16 atom takes f16 or bf16 inputs, not {}",
                    input.name()
                ),
            });
        }
    };
    Ok(MmaTraits::from_name(&format!(
        "SM80_16x8x16_F32{ab}F32_TN"
    ))?)
}

/// A layout whose strides are offsets into a column-major `(rows, ..)` tile, rewritten with basis strides
/// (`d -> (d % rows)@0 + (d / rows)@1`) so that it maps to coordinates: the form the kernels' comments and
/// index expressions use (`((_4,_8),(_2,_2)):((_32,_1),(_16,_8))` in a 16-row tile is
/// `((_4,_8),(_2,_2)):((_2@1,_1@0),(_1@1,_8@0))`). A stride with both parts non-zero is an error.
///
/// ```
/// use cute_gpu::atom::as_coordinates;
/// let l: cute_layout_core::Layout = "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))".parse().unwrap();
/// assert_eq!(as_coordinates(&l, 16).unwrap().to_string(), "((_4,_8),(_2,_2)):((_2@1,_1@0),(_1@1,_8@0))");
/// let both: cute_layout_core::Layout = "_2:_17".parse().unwrap(); // 17 = row 1 + column 1
/// assert!(as_coordinates(&both, 16).is_err());
/// ```
pub fn as_coordinates(l: &Layout, rows: i64) -> Result<Layout> {
    fn walk(t: &IntTuple, rows: i64) -> Result<IntTuple> {
        match t {
            IntTuple::Tuple(v) => Ok(IntTuple::tuple(
                v.iter().map(|e| walk(e, rows)).collect::<Result<_>>()?,
            )),
            IntTuple::Int(d) => {
                let (r, c) = (d.value % rows, d.value / rows);
                match (r, c) {
                    (0, 0) => Ok(IntTuple::Int(Int::s(0))),
                    (r, 0) => Ok(IntTuple::Basis(ScaledBasis::new(Int::s(r), vec![0]))),
                    (0, c) => Ok(IntTuple::Basis(ScaledBasis::new(Int::s(c), vec![1]))),
                    _ => Err(GpuError::Config {
                        kernel: "atom",
                        reason: format!("stride {d} spans both modes of a {rows}-row tile"),
                    }),
                }
            }
            other => Ok(other.clone()),
        }
    }
    Ok(Layout::new(l.shape().clone(), walk(l.stride(), rows)?)?)
}

/// The `ldmatrix.x4` copy atom reading a tile stored `major`-contiguous: `SM75_U32x4_LDSM_N` (K-major) or
/// `SM75_U16x8_LDSM_T` (MN-major), over 16-bit values.
fn ldmatrix_atom(major: Major) -> Result<CopyAtom> {
    let name = match major {
        Major::K => "SM75_U32x4_LDSM_N",
        Major::MN => "SM75_U16x8_LDSM_T",
    };
    Ok(CopyAtom::from_name(name, 16)?)
}

/// lane -> `(mn, k)`: the tile element whose row (8 contiguous values) lane `i` of one `ldmatrix.x4`
/// points at, for `operand` (A or B) of one `mma` atom widened to a 16x16 `(mn, k)` block, tile stored
/// `major`-contiguous. CuTe's `make_tiled_copy_A/B(ldmatrix atom, tiled_mma)`: the source thread-value
/// layout's value 0 of each thread, written as the basis-stride layout `(_8,_2,_2):(..)` that reproduces
/// all 32 lanes (checked).
///
/// ```
/// use cute_gpu::{atom::{ldmatrix_lanes, sm80_mma}, DType, Major};
/// use cute_layout_core::atom::Operand;
/// let l = ldmatrix_lanes(&sm80_mma(DType::F16).unwrap(), Operand::A, Major::K).unwrap();
/// assert_eq!(l.to_string(), "(_8,_2,_2):(_1@0,_8@0,_8@1)"); // lanes 8..16 point 8 rows down
/// ```
pub fn ldmatrix_lanes(mma: &MmaTraits, operand: Operand, major: Major) -> Result<Layout> {
    let block: Tiler = "(_16,_16,_16)".parse()?;
    let one: Layout = "(_1,_1,_1):(_0,_0,_0)".parse()?;
    let tiled = TiledMma::new(mma.clone(), &one, Some(&block))?;
    let copy = TiledCopy::for_mma(ldmatrix_atom(major)?, &tiled, operand)?;
    let tv = copy.layout_s_tv()?;
    let lane = |i: i64| -> Result<[i64; 2]> {
        let idx = eval_int(&tv, &IntTuple::tuple(vec![IntTuple::d(i), IntTuple::d(0)]))?;
        Ok([idx % 16, idx / 16])
    };
    matrix_row_lanes(&lane, &tv.to_string())
}

/// The lanes of an 8x8-matrix instruction (`ldmatrix`/`stmatrix.x4`: lane `i` addresses row `i % 8` of
/// matrix `i / 8`) as the basis-stride layout `(_8,_2,_2):(..)` that reproduces `lane(i)` (the `(row,
/// col)` of the row lane `i` addresses) for all 32 lanes (checked; `tv` names the source in the error).
fn matrix_row_lanes(lane: &dyn Fn(i64) -> Result<[i64; 2]>, tv: &str) -> Result<Layout> {
    let basis = |c: [i64; 2]| -> IntTuple {
        match c {
            [0, k] => IntTuple::Basis(ScaledBasis::new(Int::s(k), vec![1])),
            [mn, _] => IntTuple::Basis(ScaledBasis::new(Int::s(mn), vec![0])),
        }
    };
    let strides = [lane(1)?, lane(8)?, lane(16)?];
    let layout = Layout::new(
        "(_8,_2,_2)".parse()?,
        IntTuple::tuple(strides.iter().map(|c| basis(*c)).collect()),
    )?;
    for i in 0..32 {
        if crate::emit::basis_coord(&layout, i)? != lane(i)? {
            return Err(GpuError::Config {
                kernel: "atom",
                reason: format!("8x8-matrix lanes of {tv} are not the linear layout {layout}"),
            });
        }
    }
    Ok(layout)
}

/// One `stmatrix.x4` (`SM90_U32x4_STSM_N`) of a warp group's GMMA accumulators, from CuTe's
/// `make_tiled_copy_C_atom(Copy_Atom<SM90_U32x4_STSM_N, 16-bit>, gmma)`: it stores a `(64, cols)` block
/// of the accumulator tile, each warp its own 16 rows.
///
/// ```
/// use cute_gpu::atom::stmatrix_gmma_c;
/// let st = stmatrix_gmma_c("lane").unwrap();
/// assert_eq!(st.lanes.to_string(), "(_8,_2,_2):(_1@0,_8@0,_8@1)"); // lane -> (row, col) it addresses
/// assert_eq!((st.row.as_str(), st.col.as_str()), ("(lane % 8) + (lane / 8 % 2) * 8", "(lane / 16) * 8"));
/// assert_eq!(st.registers, [[0, 0], [8, 0], [0, 8], [8, 8]]); // register -> its value pair's offset
/// assert_eq!(st.cols, 16);
/// ```
pub struct StmatrixC {
    /// Lane -> `(row, col)` of the 8-value row it addresses, from its warp's first row and the block's
    /// first column.
    pub lanes: Layout,
    /// The row a lane addresses, a C expression of the lane variable.
    pub row: String,
    /// The column a lane addresses.
    pub col: String,
    /// Register `i` holds the value pair at this `(row, col)` offset from the thread's value 0 (and the
    /// next column).
    pub registers: [[i64; 2]; 4],
    /// Columns of the block one `stmatrix.x4` stores.
    pub cols: i64,
}

/// The [`StmatrixC`] of the GMMA accumulators (any 16-bit output: `stmatrix` moves 16-bit values), for
/// the lane index expression `lane`.
pub fn stmatrix_gmma_c(lane: &str) -> Result<StmatrixC> {
    let gmma = MmaTraits::from_name("SM90_64x16x16_F32BF16BF16_SS<GMMA::Major::K,GMMA::Major::K>")?;
    let one: Layout = "(_1,_1,_1):(_0,_0,_0)".parse()?;
    let mma = TiledMma::new(gmma, &one, None)?;
    let copy = TiledCopy::for_mma_c_atom(CopyAtom::from_name("SM90_U32x4_STSM_N", 16)?, &mma)?;
    let Tiler::Tuple(modes) = &copy.tiler_mn else {
        return atom_error(format!("tiler {} is not by mode", copy.tiler_mn));
    };
    let [Tiler::Layout(rows), Tiler::Layout(cols)] = modes.as_slice() else {
        return atom_error(format!("tiler {} is not two layouts", copy.tiler_mn));
    };
    let (tile_rows, tile_cols) = (size(rows)?, size(cols)?);
    // (thread, value) of a thread-value layout -> (row, col) of the accumulator tile
    let at = |tv: &Layout, t: i64, v: i64| -> Result<[i64; 2]> {
        let i = eval_int(tv, &IntTuple::tuple(vec![IntTuple::d(t), IntTuple::d(v)]))?;
        let (m, n) = (i % tile_rows, i / tile_rows);
        Ok([
            eval_int(rows, &IntTuple::d(m))?,
            eval_int(cols, &IntTuple::d(n))?,
        ])
    };
    let (src, dst) = (copy.layout_s_tv()?, copy.layout_d_tv()?);
    let c = Fragment::new(&gmma_c_layout(16)?, 64, "tid")?;
    let threads = c.layout.mode(0)?;
    let mut registers = [[0; 2]; 4];
    for t in 0..128 {
        let first = crate::emit::basis_coord(&threads, t)?;
        for (r, reg) in registers.iter_mut().enumerate() {
            let (v0, v1) = (at(&src, t, 2 * r as i64)?, at(&src, t, 2 * r as i64 + 1)?);
            let offset = [v0[0] - first[0], v0[1] - first[1]];
            // the row the thread addresses lies in its own warp's 16 rows (of the 64)
            let warp_row = at(&dst, t, 0)?[0] - 16 * (t / 32);
            if v1 != [v0[0], v0[1] + 1] || (t > 0 && *reg != offset) || !(0..16).contains(&warp_row)
            {
                return atom_error(format!(
                    "{copy:?}: thread {t} register {r} is not a column pair at one offset in its warp's rows"
                ));
            }
            *reg = offset;
        }
    }
    let lanes = matrix_row_lanes(&|i| at(&dst, i, 0), &dst.to_string())?;
    Ok(StmatrixC {
        row: crate::emit::basis_coord_expr(&lanes, lane, 0)?,
        col: crate::emit::basis_coord_expr(&lanes, lane, 1)?,
        lanes,
        registers,
        cols: tile_cols,
    })
}

fn eval_int(l: &Layout, at: &IntTuple) -> Result<i64> {
    layout_eval(l, at)?
        .as_int()
        .map(|v| v.value)
        .ok_or_else(|| GpuError::Config {
            kernel: "atom",
            reason: format!("{l} at {at} is not an offset"),
        })
}

fn size(l: &Layout) -> Result<i64> {
    Ok(cute_layout_core::size(l)?.value)
}

fn atom_error<T>(reason: String) -> Result<T> {
    Err(GpuError::Config {
        kernel: "atom",
        reason,
    })
}

/// Where a thread's accumulator values sit in an MMA's C tile: the C thread-value layout as coordinates,
/// the C expressions of the thread's first `(row, col)` (from the thread mode) and the coordinate offset of
/// each value (from the value mode). Epilogues index accumulators with these, never by hand.
///
/// ```
/// use cute_gpu::{atom::{sm80_mma, Fragment}, DType};
/// let f = Fragment::new(&sm80_mma(DType::F16).unwrap().layout_c, 16, "t").unwrap();
/// assert_eq!(f.row, "(t / 4)");
/// assert!(f.pairs_along_columns().is_ok());
/// ```
#[derive(Clone, Debug)]
pub struct Fragment {
    /// The C layout as coordinates: `(thread, value) -> (row, col)`.
    pub layout: Layout,
    /// Row of the thread's value 0, a C expression of the thread variable.
    pub row: String,
    /// Column of the thread's value 0.
    pub col: String,
}

impl Fragment {
    /// The fragment of the C layout `layout_c` (offsets in a column-major tile of `rows` rows), for the
    /// thread index expression `thread`.
    ///
    /// ```
    /// use cute_gpu::atom::{sm80_mma, Fragment};
    /// let mma = sm80_mma(cute_gpu::DType::F16).unwrap();
    /// let f = Fragment::new(&mma.layout_c, 16, "lane").unwrap();
    /// assert_eq!(f.layout.to_string(), "((_4,_8),(_2,_2)):((_2@1,_1@0),(_1@1,_8@0))");
    /// assert_eq!((f.row.as_str(), f.col.as_str()), ("(lane / 4)", "(lane % 4) * 2"));
    /// assert_eq!(f.value(2).unwrap(), [8, 0]); // the second pair is 8 rows down
    /// ```
    pub fn new(layout_c: &Layout, rows: i64, thread: &str) -> Result<Fragment> {
        let layout = as_coordinates(layout_c, rows)?;
        let threads = layout.mode(0)?;
        Ok(Fragment {
            row: crate::emit::basis_coord_expr(&threads, thread, 0)?,
            col: crate::emit::basis_coord_expr(&threads, thread, 1)?,
            layout,
        })
    }

    /// The `(row, col)` offset of value `v` from the thread's value 0.
    ///
    /// ```
    /// use cute_gpu::{atom::{sm80_mma, Fragment}, DType};
    /// let f = Fragment::new(&sm80_mma(DType::F16).unwrap().layout_c, 16, "lane").unwrap();
    /// assert_eq!([f.value(0).unwrap(), f.value(1).unwrap(), f.value(3).unwrap()], [[0, 0], [0, 1], [8, 1]]);
    /// ```
    pub fn value(&self, v: i64) -> Result<[i64; 2]> {
        crate::emit::basis_coord(&self.layout.mode(1)?, v)
    }

    /// Checks that values 0 and 1 are a column pair (stored together as one 2-element vector).
    ///
    /// ```
    /// use cute_gpu::{atom::{sm80_mma, Fragment}, DType};
    /// let f = Fragment::new(&sm80_mma(DType::F16).unwrap().layout_c, 16, "lane").unwrap();
    /// assert!(f.pairs_along_columns().is_ok()); // values 0 and 1 are (0,0) and (0,1)
    /// ```
    pub fn pairs_along_columns(&self) -> Result<()> {
        if self.value(1)? == [0, 1] {
            Ok(())
        } else {
            Err(GpuError::Config {
                kernel: "atom",
                reason: format!(
                    "C layout {}: values 0 and 1 are not a column pair",
                    self.layout
                ),
            })
        }
    }
}

/// The SM80 TiledMMA of a GEMM kernel: `warps_m x warps_n` m16n8k16 atoms, CuTe's
/// `make_tiled_mma(atom, Layout<Shape<WM,WN,_1>>)`.
///
/// ```
/// use cute_gpu::{atom::sm80_tiled_mma, DType};
/// let mma = sm80_tiled_mma(DType::BF16, 2, 2).unwrap();
/// assert_eq!(mma.thr_layout_vmnk.to_string(), "(_32,_2,_2,_1):(_1,_32,_64,_0)");
/// ```
pub fn sm80_tiled_mma(input: DType, warps_m: i64, warps_n: i64) -> Result<TiledMma> {
    let atoms: Layout = format!("(_{warps_m},_{warps_n},_1):(_1,_{warps_m},_0)").parse()?;
    Ok(TiledMma::new(sm80_mma(input)?, &atoms, None)?)
}

/// C expressions of the `(m, n)` atom coordinates of thread `thread` in a TiledMMA: the modes 1 and 2 of
/// `thr_layout_vmnk` (`(atom thread, m, n, k) -> thread index`) inverted, which needs that layout to be
/// compact column-major (checked for every thread).
///
/// ```
/// let mma = cute_gpu::atom::sm80_tiled_mma(cute_gpu::DType::F16, 2, 4).unwrap();
/// assert_eq!(cute_gpu::atom::atom_coords(&mma, "tid").unwrap(), ["(tid / 32 % 2)", "(tid / 64 % 4)"]);
/// ```
pub fn atom_coords(mma: &TiledMma, thread: &str) -> Result<[String; 2]> {
    let vmnk = &mma.thr_layout_vmnk;
    let basis = |mode: usize| IntTuple::Basis(ScaledBasis::new(Int::s(1), vec![mode]));
    let mut strides = Vec::new();
    for (i, m) in vmnk.modes().iter().enumerate() {
        let leaves = m.shape().leaves().len();
        let stride = match i {
            1 | 2 => basis(i - 1),
            _ => IntTuple::Int(Int::s(0)),
        };
        strides.push(if leaves == 1 {
            stride
        } else {
            IntTuple::tuple(vec![stride; leaves])
        });
    }
    let coords = Layout::new(vmnk.shape().clone(), IntTuple::tuple(strides))?;
    let col_major = cute_layout_core::compact_col_major(vmnk.shape(), None)?;
    for t in 0..cute_layout_core::size(vmnk)?.value {
        let c = cute_layout_core::idx2crd(&IntTuple::s(t), vmnk.shape(), &col_major)?;
        let back = layout_eval(vmnk, &c)?.as_int().map(|v| v.value);
        if back != Some(t) {
            return Err(GpuError::Config {
                kernel: "atom",
                reason: format!("thr_layout_vmnk {vmnk} is not compact column-major at thread {t}"),
            });
        }
    }
    Ok([
        crate::emit::basis_coord_expr(&coords, thread, 0)?,
        crate::emit::basis_coord_expr(&coords, thread, 1)?,
    ])
}

/// Where each 32-bit register of an atom's A fragment finds its two 16-bit values among the f32
/// accumulators of the same atom's C fragments, when the A tile's `k` columns are consecutive C tiles
/// along `n` (for m16n8k16: two adjacent n8 accumulator tiles form one k16 A tile). Entry `r` is
/// `[(tile, c_value), (tile, c_value)]` for A values `2r` and `2r + 1`. Derived by evaluating both
/// thread-value layouts (A as `(m,k)` coordinates, C as `(m,n)`), and checked to hold for every thread:
/// the same thread owns the element in both, so P = softmax(S) feeds the next MMA straight from registers.
///
/// ```
/// let mma = cute_gpu::atom::sm80_mma(cute_gpu::DType::BF16).unwrap();
/// let map = cute_gpu::atom::accumulator_as_a(&mma).unwrap();
/// // a0,a1 = tile 0 values 0,1; a2,a3 = tile 0 values 2,3 (8 rows down); a4..a7 = tile 1
/// assert_eq!(map, [[(0, 0), (0, 1)], [(0, 2), (0, 3)], [(1, 0), (1, 1)], [(1, 2), (1, 3)]]);
/// ```
pub fn accumulator_as_a(mma: &MmaTraits) -> Result<Vec<[(i64, i64); 2]>> {
    let (m, n) = (mma.extent(0)?, mma.extent(1)?);
    let a = as_coordinates(&mma.layout_a, m)?;
    let c = as_coordinates(&mma.layout_c, m)?;
    let threads = cute_layout_core::size(&a.mode(0)?)?.value;
    let a_values = cute_layout_core::size(&a.mode(1)?)?.value;
    let c_values = cute_layout_core::size(&c.mode(1)?)?.value;
    if cute_layout_core::size(&c.mode(0)?)?.value != threads || a_values % 2 != 0 {
        return Err(GpuError::Config {
            kernel: "atom",
            reason: format!("A {a} and C {c} do not pair up thread for thread"),
        });
    }
    let mut out = Vec::new();
    for u in (0..a_values).step_by(2) {
        let mut pair = [(0, 0); 2];
        for (h, slot) in pair.iter_mut().enumerate() {
            let mut found: Option<(i64, i64)> = None;
            for t in 0..threads {
                let [row, k] = crate::emit::basis_coord(&a, t + threads * (u + h as i64))?;
                let hit = (0..c_values).find(|&v| {
                    crate::emit::basis_coord(&c, t + threads * v).ok() == Some([row, k % n])
                });
                let this = hit.map(|v| (k / n, v));
                if this.is_none() || (found.is_some() && found != this) {
                    return Err(GpuError::Config {
                        kernel: "atom",
                        reason: format!(
                            "A value {} of thread {t} ({row},{k}) is not a C value of that thread ({c})",
                            u + h as i64
                        ),
                    });
                }
                found = this;
            }
            *slot = found.unwrap_or((0, 0));
        }
        out.push(pair);
    }
    Ok(out)
}

/// The register map of P from a wgmma accumulator into the A operand of a register-A wgmma (`_RS`), the
/// wgmma form of [`accumulator_as_a`]: for each k16 block `kk` of the `64 x n` accumulator (columns
/// `16kk..16kk+16` as A's `k`), each of A's 4 registers of value pairs, the two accumulator values
/// (indices into the thread's `n/2` f32 values) it packs. Derived from `gmma_c_layout(n)` and
/// `gmma_a_register_layout(16)` as coordinates, checked for every thread of the warp group.
///
/// ```
/// let map = cute_gpu::atom::gmma_accumulator_as_a(32).unwrap();
/// // the A fragment of k16 block kk is the accumulator values 8kk .. 8kk+7, in order
/// assert_eq!(map, [[[0, 1], [2, 3], [4, 5], [6, 7]], [[8, 9], [10, 11], [12, 13], [14, 15]]]);
/// ```
pub fn gmma_accumulator_as_a(n: i64) -> Result<Vec<Vec<[i64; 2]>>> {
    use cute_layout_core::atom::gmma::{gmma_a_register_layout, gmma_c_layout};
    let a = as_coordinates(&gmma_a_register_layout(16)?, 64)?;
    let c = as_coordinates(&gmma_c_layout(n)?, 64)?;
    let threads = cute_layout_core::size(&a.mode(0)?)?.value;
    let a_values = cute_layout_core::size(&a.mode(1)?)?.value;
    let c_values = cute_layout_core::size(&c.mode(1)?)?.value;
    // each thread's accumulator values by coordinate, and each A value's coordinate: evaluated once
    let coord = |l: &Layout, t: i64, v: i64| crate::emit::basis_coord(l, t + threads * v);
    let mut acc_at = std::collections::HashMap::new();
    for t in 0..threads {
        for v in 0..c_values {
            acc_at.insert((t, coord(&c, t, v)?), v);
        }
    }
    let a_coords = (0..threads)
        .map(|t| (0..a_values).map(|u| coord(&a, t, u)).collect())
        .collect::<Result<Vec<Vec<[i64; 2]>>>>()?;
    let mut out = Vec::new();
    for kk in 0..n / 16 {
        let mut regs = Vec::new();
        for u in (0..a_values).step_by(2) {
            let mut pair = [0i64; 2];
            for (h, slot) in pair.iter_mut().enumerate() {
                let mut found = None;
                for t in 0..threads {
                    let [row, k] = a_coords[t as usize][(u + h as i64) as usize];
                    let hit = acc_at.get(&(t, [row, 16 * kk + k])).copied();
                    if hit.is_none() || (found.is_some() && found != hit) {
                        return Err(GpuError::Config {
                            kernel: "atom",
                            reason: format!(
                                "A value {} of thread {t} ({row},{k}) of k16 block {kk} is not one accumulator value of {c}",
                                u + h as i64
                            ),
                        });
                    }
                    found = hit;
                }
                *slot = found.unwrap_or(0);
            }
            regs.push(pair);
        }
        out.push(regs);
    }
    Ok(out)
}

/// Checks that the `64 x n` wgmma accumulator is `n/8` side-by-side copies of the `64 x 8` one: value
/// `v` of `gmma_c_layout(n)` is value `v % per` of `gmma_c_layout(8)` moved `8 * (v / per)` columns right,
/// for every thread (`per`: values of the `64 x 8` fragment, returned). Kernels then index the
/// accumulators as `n/8` atoms of `per` values (the row/column pattern of the online softmax and masks).
///
/// ```
/// assert_eq!(cute_gpu::atom::gmma_n8_values(128).unwrap(), 4);
/// ```
pub fn gmma_n8_values(n: i64) -> Result<i64> {
    use cute_layout_core::atom::gmma::gmma_c_layout;
    let c = as_coordinates(&gmma_c_layout(n)?, 64)?;
    let c8 = as_coordinates(&gmma_c_layout(8)?, 64)?;
    let threads = cute_layout_core::size(&c.mode(0)?)?.value;
    let per = cute_layout_core::size(&c8.mode(1)?)?.value;
    for t in 0..threads {
        for v in 0..n / 8 * per {
            let [r, col] = crate::emit::basis_coord(&c, t + threads * v)?;
            let [r8, col8] = crate::emit::basis_coord(&c8, t + threads * (v % per))?;
            if (r, col) != (r8, col8 + 8 * (v / per)) {
                return Err(GpuError::Config {
                    kernel: "atom",
                    reason: format!("{c}: value {v} of thread {t} is not an n8 atom's value"),
                });
            }
        }
    }
    Ok(per)
}
