//! TiledMMA: an MMA atom repeated over more threads (the atom layout) and more values (the permutation),
//! built with the layout algebra exactly as CuTe's `make_tiled_mma` / `TiledMMA` do.
//!
//! * `thr_layout_vmnk = tiled_product(ThrID, AtomLayoutMNK)`: `(atom thread, atom m, atom n, atom k)` -> thread;
//! * the tile is `tile_size<0..3>` = the size of each permutation mode (`_` = atom size x atom count);
//! * `layout_{a,b,c}_tv` map `(thread index, value)` to the column-major offset in the `M x K`, `N x K`,
//!   `M x N` tile; threads that only replicate data (e.g. the N-threads for A) get stride 0.
//!
//! ```
//! use cute_layout_core::atom::{MmaTraits, TiledMma};
//! let atom = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
//! let mma = TiledMma::new(atom, &"(_2,_2,_1):(_1,_2,_0)".parse().unwrap(), None).unwrap();
//! assert_eq!(mma.thr_layout_vmnk.to_string(), "(_32,_2,_2,_1):(_1,_32,_64,_0)");
//! assert_eq!(mma.tile_shape().unwrap().to_string(), "(_32,_16,_16)");
//! assert_eq!(
//!     mma.layout_c_tv().unwrap().to_string(),
//!     "((_4,_8,_2,_2),((_2,_2),(_1,_1))):((_64,_1,_16,_256),((_32,_8),(_0,_0)))"
//! );
//! ```

use super::MmaTraits;
use super::alg;
use crate::error::{LayoutError, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::tiler::Tiler;

/// Which operand of `D = A * B + C`.
///
/// ```
/// use cute_layout_core::atom::Operand;
/// assert_eq!(Operand::A.modes(), (0, 2)); // (M,K)
/// assert_eq!(Operand::C.modes(), (0, 1)); // (M,N)
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A: `M x K`.
    A,
    /// B: `N x K`.
    B,
    /// C (and D): `M x N`.
    C,
}

impl Operand {
    /// The two modes of `(M,N,K)` this operand spans: A = (M,K), B = (N,K), C = (M,N).
    ///
    /// ```
    /// use cute_layout_core::atom::Operand;
    /// assert_eq!(Operand::B.modes(), (1, 2)); // (N,K)
    /// ```
    pub fn modes(self) -> (usize, usize) {
        match self {
            Operand::A => (0, 2),
            Operand::B => (1, 2),
            Operand::C => (0, 1),
        }
    }
}

/// An MMA atom tiled over threads and values (CuTe's `TiledMMA`).
///
/// ```
/// use cute_layout_core::atom::{MmaTraits, TiledMma};
/// let atom = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
/// // make_tiled_mma(atom, Layout<Shape<_2,_2,_1>>{}): 2x2 warps
/// let mma = TiledMma::new(atom, &"(_2,_2,_1):(_1,_2,_0)".parse().unwrap(), None).unwrap();
/// assert_eq!(mma.thr_layout_vmnk.to_string(), "(_32,_2,_2,_1):(_1,_32,_64,_0)");
/// assert_eq!(mma.tile_shape().unwrap().to_string(), "(_32,_16,_16)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TiledMma {
    /// The atom's traits.
    pub atom: MmaTraits,
    /// The atom layout, padded to rank 3 with `_1:_0`: `(m,n,k)` atom coordinate -> atom index.
    pub atom_layout_mnk: Layout,
    /// The permutation of each of M, N, K (`_` where none was given), rank 3.
    pub permutation_mnk: Vec<Tiler>,
    /// `tiled_product(ThrID, AtomLayoutMNK)`: `(v,m,n,k)` -> thread index.
    pub thr_layout_vmnk: Layout,
}

impl TiledMma {
    /// CuTe's `make_tiled_mma(atom, atom_layout, permutation)`. The atom layout and the permutation may have
    /// rank below 3; they are padded with `_1:_0` and `_`. The permutation is a tuple of tilers, each a layout,
    /// a shape, or `_`.
    ///
    /// ```
    /// use cute_layout_core::atom::{MmaTraits, TiledMma};
    /// let atom = MmaTraits::from_name("SM70_8x8x4_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(atom, &"(_2,_2):(_1,_2)".parse().unwrap(), None).unwrap();
    /// assert_eq!(mma.thr_layout_vmnk.to_string(), "((_4,_2),_2,_2,_1):((_1,_16),_4,_8,_0)");
    /// ```
    pub fn new(
        atom: MmaTraits,
        atom_layout: &Layout,
        permutation: Option<&Tiler>,
    ) -> Result<TiledMma> {
        if atom_layout.rank() > 3 {
            return Err(LayoutError::invalid(format!(
                "make_tiled_mma: the atom layout {atom_layout} has rank {}, at most 3 (M,N,K)",
                atom_layout.rank()
            )));
        }
        let atom_layout_mnk = alg::append_to_rank(atom_layout, 3, &"_1:_0".parse()?);
        let mut permutation_mnk = match permutation {
            None => vec![],
            Some(Tiler::Tuple(v)) => v.clone(),
            Some(t) => vec![t.clone()],
        };
        if permutation_mnk.len() > 3 {
            return Err(LayoutError::invalid(format!(
                "make_tiled_mma: the permutation {} has rank {}, at most 3 (M,N,K)",
                permutation.map(|p| p.to_string()).unwrap_or_default(),
                permutation_mnk.len()
            )));
        }
        permutation_mnk.resize(3, Tiler::Underscore);
        if !atom_layout_mnk.shape().is_static() || !atom_layout_mnk.stride().is_static() {
            return Err(LayoutError::NeedsStatic {
                what: "make_tiled_mma: the atom layout".into(),
                value: atom_layout.to_string(),
            });
        }
        let thr_layout_vmnk = alg::tiled_product(&atom.thr_id, &atom_layout_mnk)?;
        Ok(TiledMma {
            atom,
            atom_layout_mnk,
            permutation_mnk,
            thr_layout_vmnk,
        })
    }

    /// CuTe's `permutation_mnk<I>()`: the given permutation of mode `i`, or for `_` the static integer
    /// `size<i>(Shape_MNK) * size<i+1>(thr_layout_vmnk)`.
    ///
    /// ```
    /// use cute_layout_core::atom::{MmaTraits, TiledMma};
    /// let atom = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(atom, &"(_2,_2,_1):(_1,_2,_0)".parse().unwrap(), None).unwrap();
    /// assert_eq!(mma.permutation(0).unwrap().to_string(), "_32"); // 16 * 2 warps along M
    /// assert_eq!(mma.permutation(2).unwrap().to_string(), "_16");
    /// ```
    pub fn permutation(&self, i: usize) -> Result<Tiler> {
        let p = self
            .permutation_mnk
            .get(i)
            .ok_or(LayoutError::IndexOutOfRange {
                what: "permutation_mnk".into(),
                index: i as i64,
                bound: 3,
            })?;
        match p {
            Tiler::Underscore => {
                let atom = crate::tuple_ops::product(&self.atom.shape_mnk.get(i)?)?;
                let count = alg::size_of_mode(&self.thr_layout_vmnk, i + 1)?;
                Ok(alg::tint(atom.mul(count)?))
            }
            p => Ok(p.clone()),
        }
    }

    /// CuTe's `tile_size<I>(mma)`: the size of the permutation of mode `i`.
    ///
    /// ```
    /// use cute_layout_core::atom::{MmaTraits, TiledMma};
    /// let atom = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(atom, &"(_2,_2,_1):(_1,_2,_0)".parse().unwrap(), None).unwrap();
    /// assert_eq!(mma.tile_size(1).unwrap().to_string(), "_16");
    /// ```
    pub fn tile_size(&self, i: usize) -> Result<Int> {
        tiler_size(&self.permutation(i)?)
    }

    /// CuTe's `tile_shape(mma)`: `(tile_size<0>, tile_size<1>, tile_size<2>)`.
    ///
    /// ```
    /// use cute_layout_core::atom::{MmaTraits, TiledMma};
    /// let atom = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(atom, &"(_2,_2,_1):(_1,_2,_0)".parse().unwrap(), None).unwrap();
    /// assert_eq!(mma.tile_shape().unwrap().to_string(), "(_32,_16,_16)");
    /// ```
    pub fn tile_shape(&self) -> Result<IntTuple> {
        Ok(IntTuple::tuple(
            (0..3)
                .map(|i| self.tile_size(i).map(IntTuple::Int))
                .collect::<Result<_>>()?,
        ))
    }

    /// The atom's TV layout for an operand.
    ///
    /// ```
    /// use cute_layout_core::atom::{MmaTraits, Operand, TiledMma};
    /// let atom = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(atom, &"(_2,_2,_1):(_1,_2,_0)".parse().unwrap(), None).unwrap();
    /// assert_eq!(mma.atom_layout_tv(Operand::C).to_string(), "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))");
    /// ```
    pub fn atom_layout_tv(&self, op: Operand) -> &Layout {
        match op {
            Operand::A => &self.atom.layout_a,
            Operand::B => &self.atom.layout_b,
            Operand::C => &self.atom.layout_c,
        }
    }

    /// CuTe's `thrfrg_A/B/C`: tile a rank-2 (or more) layout over the operand's modes into
    /// `((ThrV,(Thr0,Thr1)),(FrgV,(Rest0,Rest1,...)))`.
    ///
    /// ```
    /// use cute_layout_core::atom::{MmaTraits, Operand, TiledMma};
    /// let atom = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(atom, &"(_2,_2,_1):(_1,_2,_0)".parse().unwrap(), None).unwrap();
    /// let c = mma.thrfrg(Operand::C, &"(_32,_16):(_1,_32)".parse().unwrap()).unwrap();
    /// assert_eq!(c.to_string(), "(((_4,_8),(_2,_2)),((_2,_2),(_1,_1))):(((_64,_1),(_16,_256)),((_32,_8),(_0,_0)))");
    /// ```
    pub fn thrfrg(&self, op: Operand, layout: &Layout) -> Result<Layout> {
        if layout.rank() < 2 {
            return Err(LayoutError::invalid(format!(
                "partitioning for a TiledMMA needs a layout of rank 2 or more, got {layout}"
            )));
        }
        let (i, j) = op.modes();
        // Reorder for the tiled atom.
        let t = alg::logical_divide(
            layout,
            &alg::tile2(self.permutation(i)?, self.permutation(j)?),
        )?;
        // Tile for the atom.
        let atom_tile = alg::tile2(
            Tiler::Layout(alg::make_layout(&self.atom.shape_mnk.get(i)?)?),
            Tiler::Layout(alg::make_layout(&self.atom.shape_mnk.get(j)?)?),
        );
        let a = alg::zipped_divide(&t, &atom_tile)?;
        // The atom mode from (i,j) coordinates to (thr,val).
        let tv = alg::composition(
            &a,
            &alg::tile2(
                Tiler::Layout(self.atom_layout_tv(op).clone()),
                Tiler::Underscore,
            ),
        )?;
        // Tile for the threads.
        let thr_tile = alg::tile2(
            Tiler::Underscore,
            alg::tile2(
                Tiler::Layout(alg::make_layout(&IntTuple::Int(alg::size_of_mode(
                    &self.thr_layout_vmnk,
                    i + 1,
                )?))?),
                Tiler::Layout(alg::make_layout(&IntTuple::Int(alg::size_of_mode(
                    &self.thr_layout_vmnk,
                    j + 1,
                )?))?),
            ),
        );
        alg::zipped_divide(&tv, &thr_tile)
    }

    /// The reference layout of an operand's tile: `make_layout((tile_size<i>, tile_size<j>))`.
    fn reference(&self, op: Operand) -> Result<Layout> {
        let (i, j) = op.modes();
        alg::make_layout(&IntTuple::tuple(vec![
            IntTuple::Int(self.tile_size(i)?),
            IntTuple::Int(self.tile_size(j)?),
        ]))
    }

    /// CuTe's `get_layoutA_TV()`: `(thread index, value)` -> column-major offset in the `M x K` tile.
    ///
    /// ```
    /// use cute_layout_core::atom::{MmaTraits, TiledMma};
    /// let atom = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(atom, &"(_2,_2,_1):(_1,_2,_0)".parse().unwrap(), None).unwrap();
    /// assert_eq!(mma.layout_a_tv().unwrap().to_string(),
    ///            "((_4,_8,_2,_2),((_2,_2,_2),(_1,_1))):((_64,_1,_16,_0),((_32,_8,_256),(_0,_0)))");
    /// ```
    pub fn layout_a_tv(&self) -> Result<Layout> {
        self.layout_tv(Operand::A)
    }

    /// CuTe's `get_layoutB_TV()`: `(thread index, value)` -> column-major offset in the `N x K` tile.
    ///
    /// ```
    /// use cute_layout_core::atom::{MmaTraits, TiledMma};
    /// let atom = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(atom, &"(_2,_2,_1):(_1,_2,_0)".parse().unwrap(), None).unwrap();
    /// assert_eq!(mma.layout_b_tv().unwrap().to_string(),
    ///            "((_4,_8,_2,_2),((_2,_2),(_1,_1))):((_32,_1,_0,_8),((_16,_128),(_0,_0)))");
    /// ```
    pub fn layout_b_tv(&self) -> Result<Layout> {
        self.layout_tv(Operand::B)
    }

    /// CuTe's `get_layoutC_TV()`: `(thread index, value)` -> column-major offset in the `M x N` tile.
    ///
    /// ```
    /// use cute_layout_core::atom::{MmaTraits, TiledMma};
    /// let atom = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(atom, &"(_2,_2,_1):(_1,_2,_0)".parse().unwrap(), None).unwrap();
    /// assert_eq!(mma.layout_c_tv().unwrap().to_string(),
    ///            "((_4,_8,_2,_2),((_2,_2),(_1,_1))):((_64,_1,_16,_256),((_32,_8),(_0,_0)))");
    /// ```
    pub fn layout_c_tv(&self) -> Result<Layout> {
        self.layout_tv(Operand::C)
    }

    /// `get_layout{A,B,C}_TV()` for any operand.
    ///
    /// ```
    /// use cute_layout_core::atom::{MmaTraits, Operand, TiledMma};
    /// let atom = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(atom, &"(_2,_2,_1):(_1,_2,_0)".parse().unwrap(), None).unwrap();
    /// assert_eq!(mma.layout_tv(Operand::C).unwrap(), mma.layout_c_tv().unwrap());
    /// ```
    pub fn layout_tv(&self, op: Operand) -> Result<Layout> {
        let frg = self.thrfrg(op, &self.reference(op)?)?;
        let thridx_to_thrid = Tiler::Layout(self.thread_index_to_id()?);
        let frg = match op {
            Operand::C => frg,
            // (ThrV,(ThrM,ThrK)) -> (ThrV,(ThrM,ThrN,ThrK)): the threads of the other mode replicate.
            Operand::A | Operand::B => {
                let m = alg::size_of_mode(&self.thr_layout_vmnk, 1)?;
                let n = alg::size_of_mode(&self.thr_layout_vmnk, 2)?;
                let (sm, sn) = if op == Operand::A { (1, 0) } else { (0, 1) };
                let spread: Layout = format!("({m},{n}):(_{sm},_{sn})").parse()?;
                let atile = alg::tile2(
                    Tiler::Underscore,
                    alg::tile2(Tiler::Layout(spread), Tiler::Underscore),
                );
                alg::composition(&frg, &alg::tile2(atile, Tiler::Underscore))?
            }
        };
        alg::composition(&frg, &alg::tile2(thridx_to_thrid, Tiler::Underscore))
    }

    /// `thr_idx -> (v,m,n,k)` thread id, as CuTe's `get_layout{A,B,C}_TV` build it:
    /// `composition(make_layout((size(vmnk),_1),(_1,_0)), right_inverse(make_layout(vmnk, complement(vmnk))))`.
    ///
    /// The inner `right_inverse` inverts `thr_layout_vmnk` over the whole range it reaches, holes included
    /// (SM70's quad pairs use lanes 0-3 and 16-19); the outer `(size,1):(1,0)` layout then folds every
    /// index back modulo the thread count, so hole lanes alias real threads. Where the composition must
    /// split a mode to do that, the TV layout shows it: `tiled_mma_layout_c_tv(SM70_8x8x4_F32F16F16F32_NT,
    /// (_1,_2,_1))` has the thread mode `((_2,_2),(_2,_2),_2):((_1,_16),(_64,_0),_4)`. For hole-free thread
    /// layouts it equals `right_inverse(vmnk)`.
    ///
    /// ```
    /// use cute_layout_core::atom::{MmaTraits, TiledMma};
    /// let atom = MmaTraits::from_name("SM70_8x8x4_F32F16F16F32_NT").unwrap();
    /// let mma = TiledMma::new(atom, &"(_1,_2,_1):(_0,_1,_0)".parse().unwrap(), None).unwrap();
    /// assert_eq!(mma.thread_index_to_id().unwrap().to_string(), "(_4,(_2,_2),_2):(_1,(_8,_0),_4)");
    /// ```
    pub fn thread_index_to_id(&self) -> Result<Layout> {
        let v = &self.thr_layout_vmnk;
        let c = crate::complement_default(v)?;
        let inverse = alg::right_inverse(&Layout::from_modes(vec![v.clone(), c]))?;
        let linear = Layout::new(
            IntTuple::tuple(vec![IntTuple::Int(alg::size(v)?), IntTuple::s(1)]),
            IntTuple::tuple(vec![IntTuple::s(1), IntTuple::s(0)]),
        )?;
        alg::composition(&linear, &Tiler::Layout(inverse))
    }

    /// CuTe's `get_layout{A_MK,B_NK,C_MN}()`: the inverse picture, `(i,j)` of the tile -> `(thrid, value)`
    /// index (`thrid + size(thrid) * value`), with the layout taking `thrid` to the thread index.
    ///
    /// ```
    /// use cute_layout_core::atom::{MmaTraits, Operand, TiledMma};
    /// let atom = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(atom, &"(_2,_2,_1):(_1,_2,_0)".parse().unwrap(), None).unwrap();
    /// let (mn, thr) = mma.layout_inverse(Operand::C).unwrap();
    /// assert_eq!(mn.to_string(), "((_8,_2,_2),(_2,_4,_2)):((_4,_256,_32),(_128,_1,_64))");
    /// assert_eq!(thr.to_string(), "(_32,_2,_2):(_1,_32,_64)");
    /// ```
    pub fn layout_inverse(&self, op: Operand) -> Result<(Layout, Layout)> {
        let reference = self.reference(op)?;
        let tv = self.thrfrg(op, &reference)?;
        let inverse = alg::with_shape(&alg::right_inverse(&tv)?, reference.shape())?;
        // thr_layout_vmnk with the mode of the other operand fixed at 0
        let dropped = match op {
            Operand::A => 2,
            Operand::B => 1,
            Operand::C => 3,
        };
        let modes = self.thr_layout_vmnk.modes();
        let thr_id = Layout::from_modes(
            modes
                .into_iter()
                .enumerate()
                .filter(|(k, _)| *k != dropped)
                .map(|(_, m)| m)
                .collect(),
        );
        Ok((inverse, thr_id))
    }

    /// Number of threads (`size(thr_layout_vmnk)`).
    ///
    /// ```
    /// use cute_layout_core::atom::{MmaTraits, TiledMma};
    /// let atom = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(atom, &"(_2,_2,_1):(_1,_2,_0)".parse().unwrap(), None).unwrap();
    /// assert_eq!(mma.num_threads().unwrap().to_string(), "_128");
    /// ```
    pub fn num_threads(&self) -> Result<Int> {
        alg::size(&self.thr_layout_vmnk)
    }

    /// The coordinate `(v,m,n,k)` of thread `thr_idx` (CuTe's `get_flat_coord`: the column-major
    /// decomposition of the index over the four modes' sizes).
    ///
    /// ```
    /// use cute_layout_core::atom::{MmaTraits, TiledMma};
    /// let atom = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(atom, &"(_2,_2,_1):(_1,_2,_0)".parse().unwrap(), None).unwrap();
    /// assert_eq!(mma.thread_vmnk(37).unwrap(), [5, 1, 0, 0]); // lane 5 of the warp at (m,n) = (1,0)
    /// ```
    pub fn thread_vmnk(&self, thr_idx: i64) -> Result<[i64; 4]> {
        let n = self.num_threads()?.value;
        if !(0..n).contains(&thr_idx) {
            return Err(LayoutError::IndexOutOfRange {
                what: "thread index of a TiledMMA".into(),
                index: thr_idx,
                bound: n,
            });
        }
        let mut out = [0i64; 4];
        let mut rest = thr_idx;
        for (k, slot) in out.iter_mut().enumerate() {
            let s = alg::size_of_mode(&self.thr_layout_vmnk, k)?.value;
            *slot = rest % s;
            rest /= s;
        }
        Ok(out)
    }

    /// CuTe's `get_slice(thr_idx).partition_{A,B,C}` on a layout: the part of `layout` (an `M x K`, `N x K` or
    /// `M x N` tensor layout, possibly with more modes) that thread `thr_idx` holds, as `(offset, layout)` with
    /// layout modes `(FrgV, Rest0, Rest1, ...)`.
    ///
    /// ```
    /// use cute_layout_core::atom::{MmaTraits, TiledMma, Operand};
    /// let atom = MmaTraits::from_name("SM80_16x8x8_F16F16F16F16_TN").unwrap();
    /// let mma = TiledMma::new(atom, &"(_1,_1,_1):(_0,_0,_0)".parse().unwrap(), None).unwrap();
    /// let (offset, part) = mma.partition(Operand::C, 5, &"(_16,_8):(_1,_16)".parse().unwrap()).unwrap();
    /// assert_eq!(offset, 1 + 16 * 2); // thread 5 holds C(1,2), C(1,3), C(9,2), C(9,3)
    /// assert_eq!(part.to_string(), "((_2,_2),_1,_1):((_16,_8),_0,_0)");
    /// ```
    pub fn partition(&self, op: Operand, thr_idx: i64, layout: &Layout) -> Result<(i64, Layout)> {
        let tensor = self.thrfrg(op, layout)?;
        let [v, m, n, k] = self.thread_vmnk(thr_idx)?;
        let (c0, c1) = match op {
            Operand::A => (m, k),
            Operand::B => (n, k),
            Operand::C => (m, n),
        };
        // mode 0 of `tensor` is (ThrV,(Thr0,Thr1)); evaluate it at the thread's coordinate.
        let thr = tensor.mode(0)?;
        let thr_v = thr.mode(0)?;
        let thr_ij = thr.mode(1)?;
        let i_size = alg::size_of_mode(&thr_ij, 0)?.value;
        let offset = alg::eval_at(&thr_v, v)? + alg::eval_at(&thr_ij, c0 + i_size * c1)?;
        // mode 1 is (FrgV,(Rest0,Rest1,...)): unpack the rest modes.
        let frg = tensor.mode(1)?;
        let mut modes = vec![frg.mode(0)?];
        modes.extend(frg.mode(1)?.modes());
        Ok((offset, Layout::from_modes(modes)))
    }

    /// `get_slice(thr_idx).partition_fragment_{A,B,C}(tensor)` on a layout: the layout of the register
    /// fragment that thread `thr_idx` allocates for its part of `layout`, with modes `(FrgV, Rest0, Rest1, ...)`.
    ///
    /// As in CuTe (`MMA_Atom::make_fragment_{A,B,C}` of the partition): C, the accumulator, is always the
    /// compact column-major `make_layout(shape)`; A and B are `make_fragment_like` of the partition, so the
    /// fragment keeps the order of the partitioned modes (this promotes vectorized copies). A GMMA operand
    /// read from shared memory (A and B of `_SS`, B of `_RS`) is a matrix descriptor, not a register fragment;
    /// asking for its fragment is an error ([`TiledMma::partition`] gives its shared-memory view).
    ///
    /// ```
    /// use cute_layout_core::atom::{MmaTraits, TiledMma, Operand};
    /// let atom = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(atom, &"(_2,_2,_1):(_1,_2,_0)".parse().unwrap(), None).unwrap();
    /// // a 64x32 row-major A tile: thread 0 holds 8 values of each of the 2x2 (M,K) atom repeats
    /// let a = mma.partition_fragment(Operand::A, 0, &"(_64,_32):(_32,_1)".parse().unwrap()).unwrap();
    /// assert_eq!(a.to_string(), "((_2,_2,_2),_2,_2):((_1,_2,_4),_16,_8)");
    /// // C is column-major whatever the tensor's order
    /// let c = mma.partition_fragment(Operand::C, 0, &"(_64,_32):(_32,_1)".parse().unwrap()).unwrap();
    /// assert_eq!(c.to_string(), "((_2,_2),_2,_2):((_1,_2),_4,_8)");
    /// ```
    pub fn partition_fragment(&self, op: Operand, thr_idx: i64, layout: &Layout) -> Result<Layout> {
        let (_, part) = self.partition(op, thr_idx, layout)?;
        self.make_fragment(op, &part)
    }

    /// [`TiledMma::partition_fragment`] of operand A.
    ///
    /// ```
    /// use cute_layout_core::atom::{MmaTraits, TiledMma};
    /// let atom = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(atom, &"(_2,_2,_1):(_1,_2,_0)".parse().unwrap(), None).unwrap();
    /// let a = mma.partition_fragment_a(0, &"(_32,_16):(_16,_1)".parse().unwrap()).unwrap();
    /// assert_eq!(a.to_string(), "((_2,_2,_2),_1,_1):((_1,_2,_4),_0,_0)");
    /// ```
    pub fn partition_fragment_a(&self, thr_idx: i64, layout: &Layout) -> Result<Layout> {
        self.partition_fragment(Operand::A, thr_idx, layout)
    }

    /// [`TiledMma::partition_fragment`] of operand B.
    ///
    /// ```
    /// use cute_layout_core::atom::{MmaTraits, TiledMma};
    /// let atom = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(atom, &"(_2,_2,_1):(_1,_2,_0)".parse().unwrap(), None).unwrap();
    /// let b = mma.partition_fragment_b(0, &"(_16,_16):(_16,_1)".parse().unwrap()).unwrap();
    /// assert_eq!(b.to_string(), "((_2,_2),_1,_1):((_1,_2),_0,_0)");
    /// ```
    pub fn partition_fragment_b(&self, thr_idx: i64, layout: &Layout) -> Result<Layout> {
        self.partition_fragment(Operand::B, thr_idx, layout)
    }

    /// [`TiledMma::partition_fragment`] of operand C.
    ///
    /// ```
    /// use cute_layout_core::atom::{MmaTraits, TiledMma};
    /// let atom = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(atom, &"(_2,_2,_1):(_1,_2,_0)".parse().unwrap(), None).unwrap();
    /// let c = mma.partition_fragment_c(0, &"(_32,_16):(_16,_1)".parse().unwrap()).unwrap();
    /// assert_eq!(c.to_string(), "((_2,_2),_1,_1):((_1,_2),_0,_0)");
    /// ```
    pub fn partition_fragment_c(&self, thr_idx: i64, layout: &Layout) -> Result<Layout> {
        self.partition_fragment(Operand::C, thr_idx, layout)
    }

    /// CuTe's `MMA_Atom::make_fragment_{A,B,C}` of an already partitioned layout `(FrgV, Rest0, Rest1, ...)`.
    ///
    /// ```
    /// use cute_layout_core::atom::{MmaTraits, Operand, TiledMma};
    /// let atom = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(atom, &"(_2,_2,_1):(_1,_2,_0)".parse().unwrap(), None).unwrap();
    /// let (_, part) = mma.partition(Operand::A, 0, &"(_32,_16):(_16,_1)".parse().unwrap()).unwrap();
    /// assert_eq!(part.to_string(), "((_2,_2,_2),_1,_1):((_1,_128,_8),_0,_0)");
    /// assert_eq!(mma.make_fragment(Operand::A, &part).unwrap().to_string(), "((_2,_2,_2),_1,_1):((_1,_2,_4),_0,_0)");
    /// ```
    pub fn make_fragment(&self, op: Operand, part: &Layout) -> Result<Layout> {
        if part.rank() < 3 {
            return Err(LayoutError::invalid(format!(
                "make_fragment_{op:?}: expected a partitioned layout (FrgV, Rest0, Rest1, ...) of rank 3 or more, got {part}"
            )));
        }
        let frg = alg::size_of_mode(part, 0)?.value;
        let atom_vals = alg::size_of_mode(self.atom_layout_tv(op), 1)?.value;
        if frg != atom_vals {
            return Err(LayoutError::invalid(format!(
                "make_fragment_{op:?}: mode 0 of {part} has {frg} values, the atom's thread holds {atom_vals}"
            )));
        }
        if self.operand_is_descriptor(op) {
            return Err(LayoutError::invalid(format!(
                "operand {op:?} of {} is read from shared memory through a GMMA descriptor; it has no register fragment",
                self.atom.op
            )));
        }
        match op {
            Operand::C => crate::make_layout(part.shape()),
            Operand::A | Operand::B => crate::make_fragment_like(part),
        }
    }

    /// True when the operand is a GMMA shared-memory descriptor (A and B of `_SS`, B of `_RS`).
    ///
    /// ```
    /// use cute_layout_core::atom::{MmaTraits, Operand, TiledMma};
    /// let ss = MmaTraits::from_name("SM90_64x64x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>").unwrap();
    /// let mma = TiledMma::new(ss, &"_1:_0".parse().unwrap(), None).unwrap();
    /// assert!(mma.operand_is_descriptor(Operand::A) && mma.operand_is_descriptor(Operand::B));
    /// assert!(!mma.operand_is_descriptor(Operand::C));
    /// ```
    pub fn operand_is_descriptor(&self, op: Operand) -> bool {
        let key = super::mma_traits::normalize(&self.atom.op);
        if !key.starts_with("SM90_64x") {
            return false;
        }
        match op {
            Operand::A => key.contains("_SS"),
            Operand::B => true,
            Operand::C => false,
        }
    }
}

/// The size of a tiler: an integer is itself, a layout its size, a tuple the product of its elements.
pub(crate) fn tiler_size(t: &Tiler) -> Result<Int> {
    match t {
        Tiler::Int(i) => Ok(*i),
        Tiler::Layout(l) => alg::size(l),
        Tiler::Tuple(v) => v
            .iter()
            .try_fold(Int::s(1), |acc, e| acc.mul(tiler_size(e)?)),
        Tiler::Underscore => Err(LayoutError::invalid("the size of `_` is not defined")),
    }
}
