//! Copy atoms (traits at a value width) and TiledCopy: a copy atom repeated over threads and values,
//! built with the layout algebra as CuTe's `Copy_Atom`, `make_tiled_copy` and `TiledCopy` do.
//!
//! A TiledCopy is a TV layout `(thread, value)` -> position in its tile plus the tiler that cuts that tile out
//! of a tensor. The source and destination TV layouts (`layout_s_tv`, `layout_d_tv`) re-express it in the
//! atom's source and destination thread-value order.
//!
//! ```
//! use cute_layout_core::atom::{CopyAtom, TiledCopy};
//! let atom = CopyAtom::from_name("UniversalCopy<uint128_t>", 16).unwrap();
//! let tc = TiledCopy::new(atom, &"(_32,_8):(_8,_1)".parse().unwrap(), &"(_1,_8):(_0,_1)".parse().unwrap()).unwrap();
//! assert_eq!(tc.tiler_mn.to_string(), "(_32,_64)");
//! assert_eq!(tc.layout_tv.to_string(), "((_8,_32),_8):((_256,_1),_32)");
//! assert_eq!(tc.layout_s_tv().unwrap().to_string(), "((_8,_32),(_8,_1)):((_256,_1),(_32,_0))");
//! ```

use super::CopyTraits;
use super::alg;
use super::tiled_mma::{Operand, TiledMma, tiler_size};
use crate::error::{LayoutError, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::modes::Coord;
use crate::tiler::Tiler;

/// A copy operation at a value width (CuTe's `Copy_Atom<Op, uint_bit_t<BITS>>`): the bit layouts recast
/// to values with `recast_layout<uint1_t, uint_bit_t<BITS>>`.
///
/// ```
/// use cute_layout_core::atom::CopyAtom;
/// // Copy_Atom<UniversalCopy<uint128_t>, half_t>: one thread moves 8 16-bit values
/// let a = CopyAtom::from_name("UniversalCopy<uint128_t>", 16).unwrap();
/// assert_eq!(a.val_layout_src.to_string(), "(_1,_8):(_0,_1)");
/// assert_eq!(a.traits.src.to_string(), "(_1,_128):(_0,_1)"); // the same in bits
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopyAtom {
    /// The operation's traits (bit layouts).
    pub traits: CopyTraits,
    /// The value width in bits.
    pub value_bits: i64,
    /// `(src thr, src val)` -> value offset.
    pub val_layout_src: Layout,
    /// `(dst thr, dst val)` -> value offset.
    pub val_layout_dst: Layout,
    /// `(ref thr, ref val)` -> value offset.
    pub val_layout_ref: Layout,
}

impl CopyAtom {
    /// The atom of `traits` for `value_bits`-wide values. CuTe rejects widths that do not keep one
    /// thread mode per atom thread (`size<0>(ValLayout) == size(ThrID)`); so does this.
    ///
    /// ```
    /// use cute_layout_core::atom::CopyAtom;
    /// let a = CopyAtom::from_name("SM75_U32x2_LDSM_N", 32).unwrap();
    /// assert_eq!(a.val_layout_dst.to_string(), "(_32,(_1,_2)):(_1,(_1,_32))");
    /// ```
    pub fn new(traits: CopyTraits, value_bits: i64) -> Result<CopyAtom> {
        if value_bits <= 0 {
            return Err(LayoutError::invalid(format!(
                "a copy atom needs a positive value width, got {value_bits} bits"
            )));
        }
        let recast = |l: &Layout| {
            if value_bits == 1 {
                Ok(l.clone())
            } else {
                alg::upcast(value_bits, l)
            }
        };
        let atom = CopyAtom {
            val_layout_src: recast(&traits.src)?,
            val_layout_dst: recast(&traits.dst)?,
            val_layout_ref: recast(&traits.reference)?,
            traits,
            value_bits,
        };
        let threads = alg::size(&atom.traits.thr_id)?.value;
        for (what, l) in [
            ("Src", &atom.val_layout_src),
            ("Dst", &atom.val_layout_dst),
            ("Ref", &atom.val_layout_ref),
        ] {
            let t = alg::size_of_mode(l, 0)?.value;
            if t != threads {
                return Err(LayoutError::invalid(format!(
                    "{} is not valid for {what} of {value_bits}-bit values: its value layout {l} has {t} threads, ThrID has {threads}",
                    atom.traits.op
                )));
            }
        }
        Ok(atom)
    }

    /// [`CopyTraits::from_name`] then [`CopyAtom::new`].
    ///
    /// ```
    /// use cute_layout_core::atom::CopyAtom;
    /// let a = CopyAtom::from_name("SM75_U32x4_LDSM_N", 16).unwrap();
    /// assert_eq!(a.val_layout_src.to_string(), "(_32,_8):(_8,_1)");
    /// assert!(CopyAtom::from_name("SM75_U32x4_LDSM", 16).is_err());
    /// ```
    pub fn from_name(op: &str, value_bits: i64) -> Result<CopyAtom> {
        CopyAtom::new(CopyTraits::from_name(op)?, value_bits)
    }

    /// `size<0>(ValLayoutRef)`: threads of one atom.
    ///
    /// ```
    /// use cute_layout_core::atom::CopyAtom;
    /// assert_eq!(CopyAtom::from_name("SM75_U32x4_LDSM_N", 16).unwrap().num_threads().unwrap().to_string(), "_32");
    /// ```
    pub fn num_threads(&self) -> Result<Int> {
        alg::size_of_mode(&self.val_layout_ref, 0)
    }

    /// `size<1>(ValLayoutRef)`: values per thread of one atom.
    ///
    /// ```
    /// use cute_layout_core::atom::CopyAtom;
    /// assert_eq!(CopyAtom::from_name("SM75_U32x4_LDSM_N", 16).unwrap().num_values().unwrap().to_string(), "_8");
    /// ```
    pub fn num_values(&self) -> Result<Int> {
        alg::size_of_mode(&self.val_layout_ref, 1)
    }

    /// `NumValSrc = size<1>(ValLayoutSrc)`.
    ///
    /// ```
    /// use cute_layout_core::atom::CopyAtom;
    /// assert_eq!(CopyAtom::from_name("UniversalCopy<uint128_t>", 16).unwrap().num_values_src().unwrap().to_string(), "_8");
    /// ```
    pub fn num_values_src(&self) -> Result<Int> {
        alg::size_of_mode(&self.val_layout_src, 1)
    }
}

/// A copy atom tiled over threads and values (CuTe's `TiledCopy<Atom, LayoutCopy_TV, ShapeTiler_MN>`).
///
/// ```
/// use cute_layout_core::atom::{CopyAtom, TiledCopy};
/// let atom = CopyAtom::from_name("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", 16).unwrap();
/// // 16x8 threads (row-major), 1x8 values each: a 16x64 tile of half_t
/// let tc = TiledCopy::new(atom, &"(_16,_8):(_8,_1)".parse().unwrap(), &"(_1,_8):(_0,_1)".parse().unwrap()).unwrap();
/// assert_eq!(tc.layout_tv.to_string(), "((_8,_16),_8):((_128,_1),_16)");
/// assert_eq!(tc.tiler_mn.to_string(), "(_16,_64)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TiledCopy {
    /// The atom.
    pub atom: CopyAtom,
    /// `TiledLayout_TV`: `(thread, value)` -> coordinate in the tile.
    pub layout_tv: Layout,
    /// `Tiler_MN`: the tile, a shape or a tuple of layouts.
    pub tiler_mn: Tiler,
}

impl TiledCopy {
    /// CuTe's `make_tiled_copy_impl`: check the TV layout against the atom and keep it.
    ///
    /// ```
    /// use cute_layout_core::atom::{CopyAtom, TiledCopy};
    /// let atom = CopyAtom::from_name("UniversalCopy<uint128_t>", 16).unwrap();
    /// let tc = TiledCopy::from_tv(atom, "((_8,_16),_8):((_128,_1),_16)".parse().unwrap(), "(_16,_64)".parse().unwrap()).unwrap();
    /// assert_eq!(tc.num_threads().unwrap().to_string(), "_128");
    /// ```
    pub fn from_tv(atom: CopyAtom, layout_tv: Layout, tiler_mn: Tiler) -> Result<TiledCopy> {
        let (thr, val) = (
            alg::size_of_mode(&layout_tv, 0)?.value,
            alg::size_of_mode(&layout_tv, 1)?.value,
        );
        let (athr, aval) = (atom.num_threads()?.value, atom.num_values()?.value);
        if thr % athr != 0 {
            return Err(LayoutError::invalid(format!(
                "TiledCopy uses too few thrs for selected CopyAtom: {thr} threads is not a multiple of the atom's {athr}"
            )));
        }
        if val % aval != 0 {
            return Err(LayoutError::invalid(format!(
                "TiledCopy uses too few vals for selected CopyAtom: {val} values per thread is not a multiple of the atom's {aval}"
            )));
        }
        Ok(TiledCopy {
            atom,
            layout_tv,
            tiler_mn,
        })
    }

    /// CuTe's `make_tiled_copy(atom, thr_layout, val_layout)`: `(m,n) -> thread` and `(m,n) -> value`
    /// layouts are combined with `raked_product`, inverted, and reshaped to `(size(thr), size(val))`.
    ///
    /// ```
    /// use cute_layout_core::atom::{CopyAtom, TiledCopy};
    /// let atom = CopyAtom::from_name("UniversalCopy<uint128_t>", 16).unwrap();
    /// let tc = TiledCopy::new(atom, &"(_16,_8):(_8,_1)".parse().unwrap(), &"(_1,_8):(_0,_1)".parse().unwrap()).unwrap();
    /// assert_eq!(tc.layout_tv.to_string(), "((_8,_16),_8):((_128,_1),_16)");
    /// ```
    pub fn new(atom: CopyAtom, thr_layout: &Layout, val_layout: &Layout) -> Result<TiledCopy> {
        let layout_mn = alg::raked_product(thr_layout, val_layout)?;
        let tv_shape = IntTuple::tuple(vec![
            IntTuple::Int(alg::size(thr_layout)?),
            IntTuple::Int(alg::size(val_layout)?),
        ]);
        let layout_tv = alg::with_shape(&alg::right_inverse(&layout_mn)?, &tv_shape)?;
        let tiler = match crate::tuple_ops::product_each(layout_mn.shape())? {
            IntTuple::Tuple(v) => Tiler::Tuple(
                v.into_iter()
                    .map(|e| Tiler::Int(e.as_int().unwrap_or(Int::s(1))))
                    .collect(),
            ),
            IntTuple::Int(i) => Tiler::Tuple(vec![Tiler::Int(i)]),
            IntTuple::Basis(b) => {
                return Err(LayoutError::invalid(format!(
                    "a tiler cannot hold the basis element {b}"
                )));
            }
        };
        TiledCopy::from_tv(atom, layout_tv, tiler)
    }

    /// CuTe's `make_tiled_copy_A/B/C(atom, mma)`: the TiledCopy whose TV layout is the TiledMMA's for that
    /// operand, over its tile.
    ///
    /// ```
    /// use cute_layout_core::atom::{CopyAtom, MmaTraits, Operand, TiledCopy, TiledMma};
    /// let atom = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(atom, &"(_2,_2,_1):(_1,_2,_0)".parse().unwrap(), None).unwrap();
    /// let ldsm = CopyAtom::from_name("SM75_U32x4_LDSM_N", 16).unwrap();
    /// let copy_a = TiledCopy::for_mma(ldsm, &mma, Operand::A).unwrap(); // make_tiled_copy_A
    /// assert_eq!(copy_a.tiler_mn.to_string(), "(_32,_16)");
    /// assert_eq!(copy_a.layout_s_tv().unwrap().to_string(), "((_16,_2,_2,_2),(_8,_1)):((_1,_256,_16,_0),(_32,_0))");
    /// ```
    pub fn for_mma(atom: CopyAtom, mma: &TiledMma, op: Operand) -> Result<TiledCopy> {
        let (i, j) = op.modes();
        let tiler = Tiler::Tuple(vec![
            Tiler::Int(mma.tile_size(i)?),
            Tiler::Int(mma.tile_size(j)?),
        ]);
        TiledCopy::from_tv(atom, mma.layout_tv(op)?, tiler)
    }

    /// CuTe's `make_tiled_copy_C_atom(atom, mma)`: the smallest TiledCopy that retiles the MMA's C layout,
    /// keeping only the first `NumValSrc` values of each thread; its tiler is a tuple of layouts.
    ///
    /// ```
    /// use cute_layout_core::atom::{CopyAtom, MmaTraits, TiledCopy, TiledMma};
    /// let atom = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(atom, &"(_2,_2,_1):(_1,_2,_0)".parse().unwrap(), None).unwrap();
    /// let st = CopyAtom::from_name("UniversalCopy<uint32_t>", 32).unwrap(); // one f32 per thread
    /// let tc = TiledCopy::for_mma_c_atom(st, &mma).unwrap(); // make_tiled_copy_C_atom
    /// assert_eq!(tc.layout_tv.to_string(), "((_4,_8,_2,_2),_1):((_16,_1,_8,_64),_0)");
    /// assert_eq!(tc.tiler_mn.to_string(), "((_8,_2):(_1,_16),_8:_2)");
    /// ```
    pub fn for_mma_c_atom(atom: CopyAtom, mma: &TiledMma) -> Result<TiledCopy> {
        let layout_c_tv = mma.layout_c_tv()?;
        let copy_v = atom.num_values_src()?;
        let frg_v = alg::size_of_mode(&layout_c_tv, 1)?;
        if copy_v.value > frg_v.value {
            return Err(LayoutError::invalid(format!(
                "make_tiled_copy_C_atom: the atom copies {} values per thread, the C fragment of the MMA has only {}",
                copy_v.value, frg_v.value
            )));
        }
        let truncate = IntTuple::tuple(vec![
            IntTuple::Int(alg::size_of_mode(&layout_c_tv, 0)?),
            IntTuple::Int(copy_v),
        ]);
        let layout_tv =
            alg::composition(&layout_c_tv, &Tiler::Layout(alg::make_layout(&truncate)?))?;
        // The active elements of each MMA mode, as a by-mode tiler of layouts.
        let (m, n) = (mma.tile_size(0)?, mma.tile_size(1)?);
        let mma_tiler = IntTuple::tuple(vec![IntTuple::Int(m), IntTuple::Int(n)]);
        let mut tiler = Vec::new();
        for (s0, s1) in [(1, 0), (0, 1)] {
            let coord: Layout = format!("({m},{n}):(_{s0},_{s1})").parse()?;
            tiler.push(Tiler::Layout(alg::filter(&alg::composition(
                &coord,
                &Tiler::Layout(layout_tv.clone()),
            )?)?));
        }
        let tiler = Tiler::Tuple(tiler);
        // tile coordinate -> mma coordinate, then (tid,vid) -> tile coordinate.
        let tile2mma = alg::composition(&alg::make_layout(&mma_tiler)?, &tiler)?;
        let layout_tv =
            alg::composition(&alg::left_inverse(&tile2mma)?, &Tiler::Layout(layout_tv))?;
        TiledCopy::from_tv(atom, layout_tv, tiler)
    }

    /// `shape(Tiler_MN)`: each tiler mode's shape.
    ///
    /// ```
    /// use cute_layout_core::atom::{CopyAtom, TiledCopy};
    /// let atom = CopyAtom::from_name("UniversalCopy<uint128_t>", 16).unwrap();
    /// let tc = TiledCopy::new(atom, &"(_16,_8):(_8,_1)".parse().unwrap(), &"(_1,_8):(_0,_1)".parse().unwrap()).unwrap();
    /// assert_eq!(tc.tile_shape().unwrap().to_string(), "(_16,_64)");
    /// ```
    pub fn tile_shape(&self) -> Result<IntTuple> {
        tiler_shape(&self.tiler_mn)
    }

    /// CuTe's `tile2thrfrg`: re-express a `(Tile, Rest)` layout as `(thr, val, Rest)` in the target order
    /// given by `ref2trg` (`(target thr, target val)` -> `(ref thr, ref val)`).
    fn tile2thrfrg(&self, tensor: &Layout, ref2trg: &Layout) -> Result<Layout> {
        let atom_shape = IntTuple::tuple(vec![
            IntTuple::Int(self.atom.num_threads()?),
            IntTuple::Int(self.atom.num_values()?),
        ]);
        let atom_tiler = Tiler::Tuple(
            atom_shape
                .elems()
                .into_iter()
                .map(|e| Tiler::Int(e.as_int().unwrap_or(Int::s(1))))
                .collect(),
        );
        let atom_layout_tv = alg::zipped_divide(&self.layout_tv, &atom_tiler)?;
        let trg_layout_tv = alg::composition(
            &atom_layout_tv,
            &alg::tile2(Tiler::Layout(ref2trg.clone()), Tiler::Underscore),
        )?;
        let profile: IntTuple = "(_1,(_1,_1))".parse()?;
        let thrval2mn = alg::coalesce_with(&alg::zip2(&trg_layout_tv)?, &profile)?;
        let tv = alg::composition(
            tensor,
            &alg::tile2(Tiler::Layout(thrval2mn), Tiler::Underscore),
        )?;
        // tv(make_coord(_,_), _): unfold the (thr,val) mode.
        let mut modes = tv.mode(0)?.modes();
        modes.extend(tv.modes().into_iter().skip(1));
        Ok(Layout::from_modes(modes))
    }

    fn ref2(&self, target: &Layout) -> Result<Layout> {
        alg::composition(
            &alg::right_inverse(&self.atom.val_layout_ref)?,
            &Tiler::Layout(target.clone()),
        )
    }

    fn layout_x_tv(&self, target: &Layout) -> Result<Layout> {
        let shape = IntTuple::tuple(vec![self.tile_shape()?, IntTuple::s(1)]);
        let full = self.tile2thrfrg(&alg::make_layout(&shape)?, &self.ref2(target)?)?;
        // (_,_,Int<0>{}): keep thr and val.
        Ok(Layout::from_modes(
            full.modes().into_iter().take(2).collect(),
        ))
    }

    /// CuTe's `get_layoutS_TV()`: `(thread, value)` in the atom's source order -> coordinate in the tile.
    ///
    /// ```
    /// use cute_layout_core::atom::{CopyAtom, TiledCopy};
    /// let atom = CopyAtom::from_name("UniversalCopy<uint128_t>", 16).unwrap();
    /// let tc = TiledCopy::new(atom, &"(_16,_8):(_8,_1)".parse().unwrap(), &"(_1,_8):(_0,_1)".parse().unwrap()).unwrap();
    /// assert_eq!(tc.layout_s_tv().unwrap().to_string(), "((_8,_16),(_8,_1)):((_128,_1),(_16,_0))");
    /// ```
    pub fn layout_s_tv(&self) -> Result<Layout> {
        self.layout_x_tv(&self.atom.val_layout_src)
    }

    /// CuTe's `get_layoutD_TV()`: `(thread, value)` in the atom's destination order -> coordinate in the tile.
    ///
    /// ```
    /// use cute_layout_core::atom::{CopyAtom, TiledCopy};
    /// let atom = CopyAtom::from_name("UniversalCopy<uint128_t>", 16).unwrap();
    /// let tc = TiledCopy::new(atom, &"(_16,_8):(_8,_1)".parse().unwrap(), &"(_1,_8):(_0,_1)".parse().unwrap()).unwrap();
    /// assert_eq!(tc.layout_d_tv().unwrap().to_string(), "((_8,_16),(_8,_1)):((_128,_1),(_16,_0))");
    /// ```
    pub fn layout_d_tv(&self) -> Result<Layout> {
        self.layout_x_tv(&self.atom.val_layout_dst)
    }

    /// CuTe's `tidfrg_S/D`: a tensor layout tiled into `(thr, val, (RestM, RestN, ...))`.
    ///
    /// ```
    /// use cute_layout_core::atom::{CopyAtom, TiledCopy};
    /// let atom = CopyAtom::from_name("UniversalCopy<uint128_t>", 16).unwrap();
    /// let tc = TiledCopy::new(atom, &"(_16,_8):(_8,_1)".parse().unwrap(), &"(_1,_8):(_0,_1)".parse().unwrap()).unwrap();
    /// // a 32x128 row-major tensor: 2x2 copies of the 16x64 tile
    /// let t = tc.tidfrg(true, &"(_32,_128):(_128,_1)".parse().unwrap()).unwrap();
    /// assert_eq!(t.to_string(), "((_8,_16),(_8,_1),(_2,_2)):((_8,_128),(_1,_0),(_2048,_64))");
    /// ```
    pub fn tidfrg(&self, source: bool, layout: &Layout) -> Result<Layout> {
        let target = if source {
            &self.atom.val_layout_src
        } else {
            &self.atom.val_layout_dst
        };
        if layout.rank() < self.tiler_mn.rank() {
            return Err(LayoutError::invalid(format!(
                "Rank of tensor to be partitioned too small: {layout} has rank {}, the tiler {} has rank {}",
                layout.rank(),
                self.tiler_mn,
                self.tiler_mn.rank()
            )));
        }
        let divided = alg::zipped_divide(layout, &self.tiler_mn)?;
        self.tile2thrfrg(&divided, &self.ref2(target)?)
    }

    /// CuTe's `get_slice(thr_idx).partition_S/D` on a layout: thread `thr_idx`'s part of `layout`, as
    /// `(offset, layout)` with modes `(CopyV, RestM, RestN, ...)`.
    ///
    /// ```
    /// use cute_layout_core::atom::{CopyAtom, TiledCopy};
    /// let atom = CopyAtom::from_name("UniversalCopy<uint128_t>", 16).unwrap();
    /// let tc = TiledCopy::new(atom, &"(_16,_8):(_8,_1)".parse().unwrap(), &"(_1,_8):(_0,_1)".parse().unwrap()).unwrap();
    /// let (offset, part) = tc.partition(true, 3, &"(_32,_128):(_128,_1)".parse().unwrap()).unwrap();
    /// assert_eq!(offset, 24); // thread 3 starts at (0, 24)
    /// assert_eq!(part.to_string(), "((_8,_1),_2,_2):((_1,_0),_2048,_64)");
    /// ```
    pub fn partition(&self, source: bool, thr_idx: i64, layout: &Layout) -> Result<(i64, Layout)> {
        let t = self.tidfrg(source, layout)?;
        let threads = alg::size_of_mode(&t, 0)?.value;
        if !(0..threads).contains(&thr_idx) {
            return Err(LayoutError::IndexOutOfRange {
                what: "thread index of a TiledCopy".into(),
                index: thr_idx,
                bound: threads,
            });
        }
        let offset = alg::eval_at(&t.mode(0)?, thr_idx)?;
        let mut modes = vec![t.mode(1)?];
        modes.extend(t.mode(2)?.modes());
        Ok((offset, Layout::from_modes(modes)))
    }

    /// CuTe's `retile_S` / `retile_D` (both are `TiledCopy::retile`) on a layout: re-tile a thread's
    /// fragment `(V, M, N, ...)`, e.g. the register fragment of a TiledMMA partition, into this copy's
    /// per-thread order `((AtomVal, RestVal), RestM, RestN, ...)`. The first `V = size<0>(layout)` values
    /// are taken to be the first value ids of the TiledCopy's TV layout:
    ///
    /// * `frg_mn = upcast<threads * V>(right_inverse(layout_tv).with_shape(shape(tiler)))`: `(m,n)` -> value id;
    /// * `frg_v = zipped_divide(logical_product(make_layout(V), right_inverse(frg_mn)), AtomNumVal)`;
    /// * the layout is divided by `(V, product_each(shape(frg_mn))...)`, its tile mode composed with
    ///   `frg_v`, and the rest sliced at `(0, _, _, ...)`.
    ///
    /// ```
    /// use cute_layout_core::atom::{CopyAtom, MmaTraits, Operand, TiledCopy, TiledMma};
    /// let mma = TiledMma::new(
    ///     MmaTraits::from_name("SM80_16x8x16_F16F16F16F16_TN").unwrap(),
    ///     &"(_2,_2,_1):(_1,_2,_0)".parse().unwrap(),
    ///     None,
    /// )
    /// .unwrap();
    /// let ldsm = CopyAtom::from_name("SM75_U32x4_LDSM_N", 16).unwrap();
    /// let copy_a = TiledCopy::for_mma(ldsm, &mma, Operand::A).unwrap();
    /// // thread 0's A fragment of a 64x32 tile, as partition_fragment_A gives it
    /// let frag = mma.partition_fragment_a(0, &"(_64,_32):(_1,_64)".parse().unwrap()).unwrap();
    /// assert_eq!(frag.to_string(), "((_2,_2,_2),_2,_2):((_1,_2,_4),_8,_16)");
    /// // the same registers seen in the ldmatrix.x4 order: 8 values per atom, one atom per (m,k) repeat
    /// assert_eq!(copy_a.retile(&frag).unwrap().to_string(), "((_8,_1),_2,_2):((_1,_0),_8,_16)");
    /// ```
    pub fn retile(&self, layout: &Layout) -> Result<Layout> {
        let r = layout.rank();
        if r < 1 + self.tiler_mn.rank() {
            return Err(LayoutError::invalid(format!(
                "retile: {layout} has rank {r}, expected (V, M, N, ...) with at least {} modes for the tiler {}",
                1 + self.tiler_mn.rank(),
                self.tiler_mn
            )));
        }
        let v = alg::size_of_mode(layout, 0)?;
        let threads = self.num_threads()?;
        // (m,n) -> v_idx: the shape and order of the first V values inside TiledLayout_TV
        let frg_layout_mn = alg::upcast(
            threads.value * v.value,
            &alg::with_shape(&alg::right_inverse(&self.layout_tv)?, &self.tile_shape()?)?,
        )?;
        // (atom_vals, rest_vals) -> (v,m,n)
        let frg_layout_v = alg::zipped_divide(
            &crate::logical_product(
                &alg::make_layout(&IntTuple::Int(v))?,
                &Tiler::Layout(alg::right_inverse(&frg_layout_mn)?),
            )?,
            &Tiler::Layout(alg::make_layout(&IntTuple::Int(self.atom.num_values()?))?),
        )?;
        // ((TileV,TileM,TileN,...),(1,RestM,RestN,...))
        let mut tile = vec![Tiler::Int(v)];
        tile.extend(
            crate::tuple_ops::product_each(frg_layout_mn.shape())?
                .elems()
                .into_iter()
                .map(|e| e.as_int().map(Tiler::Int))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| {
                    LayoutError::invalid(format!(
                        "retile: the fragment layout {frg_layout_mn} has a non-integer mode size"
                    ))
                })?,
        );
        let t = alg::zipped_divide(layout, &Tiler::Tuple(tile))?;
        // ((atom_vals,rest_vals),(1,RestM,RestN,...))
        let vt = alg::composition(
            &t,
            &alg::tile2(Tiler::Layout(frg_layout_v), Tiler::Underscore),
        )?;
        // (_, (0, _, _, ...)): keep the value mode, unfold the rest
        let mut rest = vec![Coord::Int(Int::s(0))];
        rest.resize(r, Coord::Underscore);
        crate::slice(
            &Coord::Tuple(vec![Coord::Underscore, Coord::Tuple(rest)]),
            &vt,
        )
    }

    /// CuTe's `ThrCopy::retile_S`: [`TiledCopy::retile`].
    ///
    /// ```
    /// use cute_layout_core::atom::{CopyAtom, MmaTraits, Operand, TiledCopy, TiledMma};
    /// let atom = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(atom, &"(_2,_2,_1):(_1,_2,_0)".parse().unwrap(), None).unwrap();
    /// let copy_a = TiledCopy::for_mma(CopyAtom::from_name("SM75_U32x4_LDSM_N", 16).unwrap(), &mma, Operand::A).unwrap();
    /// let frag = mma.partition_fragment_a(0, &"(_32,_16):(_1,_32)".parse().unwrap()).unwrap();
    /// assert_eq!(copy_a.retile_s(&frag).unwrap().to_string(), "((_8,_1),_1,_1):((_1,_0),_0,_0)");
    /// ```
    pub fn retile_s(&self, layout: &Layout) -> Result<Layout> {
        self.retile(layout)
    }

    /// CuTe's `ThrCopy::retile_D`: [`TiledCopy::retile`].
    ///
    /// ```
    /// use cute_layout_core::atom::{CopyAtom, MmaTraits, Operand, TiledCopy, TiledMma};
    /// let atom = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// let mma = TiledMma::new(atom, &"(_2,_2,_1):(_1,_2,_0)".parse().unwrap(), None).unwrap();
    /// let copy_a = TiledCopy::for_mma(CopyAtom::from_name("SM75_U32x4_LDSM_N", 16).unwrap(), &mma, Operand::A).unwrap();
    /// let frag = mma.partition_fragment_a(0, &"(_32,_16):(_1,_32)".parse().unwrap()).unwrap();
    /// assert_eq!(copy_a.retile_d(&frag).unwrap(), copy_a.retile_s(&frag).unwrap());
    /// ```
    pub fn retile_d(&self, layout: &Layout) -> Result<Layout> {
        self.retile(layout)
    }

    /// Number of threads (`size<0>(TiledLayout_TV)`).
    ///
    /// ```
    /// use cute_layout_core::atom::{CopyAtom, TiledCopy};
    /// let atom = CopyAtom::from_name("UniversalCopy<uint128_t>", 16).unwrap();
    /// let tc = TiledCopy::new(atom, &"(_16,_8):(_8,_1)".parse().unwrap(), &"(_1,_8):(_0,_1)".parse().unwrap()).unwrap();
    /// assert_eq!(tc.num_threads().unwrap().to_string(), "_128");
    /// ```
    pub fn num_threads(&self) -> Result<Int> {
        alg::size_of_mode(&self.layout_tv, 0)
    }

    /// The size of the tile (the product of the tiler's sizes).
    ///
    /// ```
    /// use cute_layout_core::atom::{CopyAtom, TiledCopy};
    /// let atom = CopyAtom::from_name("UniversalCopy<uint128_t>", 16).unwrap();
    /// let tc = TiledCopy::new(atom, &"(_16,_8):(_8,_1)".parse().unwrap(), &"(_1,_8):(_0,_1)".parse().unwrap()).unwrap();
    /// assert_eq!(tc.tile_size().unwrap().to_string(), "_1024"); // 16 x 64
    /// ```
    pub fn tile_size(&self) -> Result<Int> {
        tiler_size(&self.tiler_mn)
    }
}

/// `shape(tiler)`: an integer is its own shape, a layout gives its shape, a tuple its elements' shapes.
fn tiler_shape(t: &Tiler) -> Result<IntTuple> {
    match t {
        Tiler::Int(i) => Ok(IntTuple::Int(*i)),
        Tiler::Layout(l) => Ok(l.shape().clone()),
        Tiler::Tuple(v) => Ok(IntTuple::tuple(
            v.iter().map(tiler_shape).collect::<Result<_>>()?,
        )),
        Tiler::Underscore => Err(LayoutError::invalid("a copy tiler cannot contain `_`")),
    }
}
