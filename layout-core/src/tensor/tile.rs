//! Tiling tensors: composition with a layout, `zipped_divide`, `flat_divide`, `local_tile` and
//! `local_partition`. Each computes a new layout (and offset) from the tensor's layout and returns a
//! view of the same elements through it.
//!
//! Stopgap: the layout algebra these need (composition, complement, logical/zipped/flat divide) is
//! being written on other branches (`composition.rs`, `complement.rs`, `divide.rs`). Until it lands,
//! the private module `algebra` below holds the minimum for tensor tiling — pycute's composition
//! (of any layout with any layout) and the complement of a one-mode tiler — so that these functions
//! work now. When the crate-root `composition`, `logical_divide`, `zipped_divide` and `flat_divide`
//! land, `algebra` should be deleted and the four calls below pointed at them.

use super::base::{Tensor, View, ViewMut};
use super::engine::{Engine, EngineMut};
use super::layout::TensorLayout;
use super::slice::{slice_layout_and_offset, SliceCoord};
use crate::error::{LayoutError, Result};
use crate::{Int, IntTuple, Layout, Tiler};

pub(crate) mod algebra {
    //! Minimal composition / complement / divides for tensor tiling (see the module doc above).
    use super::*;

    fn int(t: &IntTuple) -> Result<Int> {
        t.expect_int("tensor tiling")
    }

    fn size(l: &Layout) -> Result<Int> {
        l.shape()
            .leaves()
            .iter()
            .try_fold(Int::s(1), |acc, s| acc.mul(int(s)?))
    }

    /// Flattened, with extent-1 modes dropped and `(s0,d0),(s1,s0*d0)` merged.
    fn coalesced(a: &Layout) -> Result<Vec<(Int, Int)>> {
        let mut out: Vec<(Int, Int)> = Vec::new();
        for (s, d) in a.shape().leaves().iter().zip(a.stride().leaves()) {
            let (s, d) = (int(s)?, int(&d)?);
            if s.value == 1 {
                continue;
            }
            if let Some(last) = out.last_mut() {
                if last.0.mul(last.1)?.value == d.value {
                    *last = (last.0.mul(s)?, last.1);
                    continue;
                }
            }
            out.push((s, d));
        }
        if out.is_empty() {
            out.push((Int::s(1), Int::s(0)));
        }
        Ok(out)
    }

    fn build(modes: Vec<(Int, Int)>) -> Result<Layout> {
        if modes.len() == 1 {
            let (s, d) = modes[0];
            return Layout::new(s.into(), d.into());
        }
        let (s, d): (Vec<IntTuple>, Vec<IntTuple>) =
            modes.into_iter().map(|(s, d)| (s.into(), d.into())).unzip();
        Layout::new(IntTuple::Tuple(s), IntTuple::Tuple(d))
    }

    /// `A o (n:r)` (pycute's composition with a one-mode layout).
    fn compose_leaf(a: &Layout, n: Int, r: Int) -> Result<Layout> {
        if r.value == 0 {
            return Layout::new(n.into(), r.into());
        }
        let modes = coalesced(a)?;
        let (mut rest_shape, mut rest_stride) = (n, r);
        let mut out = Vec::new();
        for &(s, d) in &modes[..modes.len() - 1] {
            if s.value % rest_stride.value != 0 && rest_stride.value % s.value != 0 {
                return Err(LayoutError::NotDivisible {
                    what: format!("composition {a} o {n}:{r}: stride divisibility"),
                    dividend: s.to_string(),
                    divisor: rest_stride.to_string(),
                });
            }
            let new_shape = s.div(rest_stride)?.max(Int::s(1)).min(rest_shape);
            if new_shape.value != 1 {
                out.push((new_shape, rest_stride.mul(d)?));
            }
            if rest_shape.value % new_shape.value != 0 {
                return Err(LayoutError::NotDivisible {
                    what: format!("composition {a} o {n}:{r}: shape divisibility"),
                    dividend: rest_shape.to_string(),
                    divisor: new_shape.to_string(),
                });
            }
            rest_shape = rest_shape.div(new_shape)?;
            rest_stride = rest_stride.ceil_div(s)?;
        }
        if rest_shape.value != 1 || out.is_empty() {
            let last_d = modes[modes.len() - 1].1;
            out.push((rest_shape, rest_stride.mul(last_d)?));
        }
        build(out)
    }

    /// `A o B` for any `B` (by mode of `B`).
    pub(crate) fn composition(a: &Layout, b: &Layout) -> Result<Layout> {
        match (b.shape(), b.stride()) {
            (IntTuple::Tuple(_), _) => Ok(Layout::from_modes(
                b.modes()
                    .iter()
                    .map(|m| composition(a, m))
                    .collect::<Result<_>>()?,
            )),
            (s, d) => compose_leaf(a, int(s)?, int(d)?),
        }
    }

    /// The complement of a one-mode layout `s:d` (d >= 0) in a codomain of `n` elements.
    fn complement_leaf(s: Int, d: Int, n: Int) -> Result<Layout> {
        let mut modes = Vec::new();
        let mut cur = Int::s(1);
        if s.value != 1 && d.value != 0 {
            if d.value != 1 {
                modes.push((d, cur));
            }
            cur = s.mul(d)?;
        }
        modes.push((n.ceil_div(cur)?, cur));
        let modes: Vec<_> = modes.into_iter().filter(|m| m.0.value != 1).collect();
        if modes.is_empty() {
            return Layout::new(Int::s(1).into(), Int::s(0).into());
        }
        build(modes)
    }

    /// `logical_divide(A, B)` for a tiler `B` that is `_`, an integer, a one-mode layout, or a tuple
    /// of those applied mode by mode.
    pub(crate) fn logical_divide(a: &Layout, tiler: &Tiler) -> Result<Layout> {
        match tiler {
            Tiler::Underscore => Ok(a.clone()),
            Tiler::Tuple(ts) => {
                if ts.len() > a.rank() || !a.is_tuple() {
                    return Err(LayoutError::invalid(format!(
                        "divide: the tiler {tiler} has more modes than the layout {a}"
                    )));
                }
                let modes = a.modes();
                let out = modes
                    .iter()
                    .enumerate()
                    .map(|(i, m)| match ts.get(i) {
                        Some(t) => logical_divide(m, t),
                        None => Ok(m.clone()),
                    })
                    .collect::<Result<Vec<_>>>()?;
                Ok(Layout::from_modes(out))
            }
            Tiler::Int(t) => divide_leaf(a, *t, Int::s(1)),
            Tiler::Layout(b) => match (b.shape(), b.stride()) {
                (IntTuple::Int(s), IntTuple::Int(d)) if d.value >= 0 => divide_leaf(a, *s, *d),
                _ => Err(LayoutError::invalid(format!(
                    "divide: tensor tiling supports one-mode tilers (n or n:d) and tuples of them for now, found {b}"
                ))),
            },
        }
    }

    fn divide_leaf(a: &Layout, s: Int, d: Int) -> Result<Layout> {
        let b = Layout::new(s.into(), d.into())?;
        let c = complement_leaf(s, d, size(a)?)?;
        composition(a, &Layout::from_modes(vec![b, c]))
    }

    /// `zipped_divide`: `((tiles...), (rests..., other modes...))`.
    pub(crate) fn zipped_divide(a: &Layout, tiler: &Tiler) -> Result<Layout> {
        let (tiles, rests) = unzip(a, tiler)?;
        Ok(Layout::from_modes(vec![
            Layout::from_modes(tiles),
            Layout::from_modes(rests),
        ]))
    }

    /// `flat_divide`: `(tiles..., rests..., other modes...)`.
    pub(crate) fn flat_divide(a: &Layout, tiler: &Tiler) -> Result<Layout> {
        let (mut tiles, rests) = unzip(a, tiler)?;
        tiles.extend(rests);
        Ok(Layout::from_modes(tiles))
    }

    fn unzip(a: &Layout, tiler: &Tiler) -> Result<(Vec<Layout>, Vec<Layout>)> {
        let d = logical_divide(a, tiler)?;
        match tiler {
            Tiler::Tuple(ts) => {
                let modes = d.modes();
                let mut tiles = Vec::new();
                let mut rests = Vec::new();
                for (i, m) in modes.into_iter().enumerate() {
                    if i < ts.len() && !matches!(ts[i], Tiler::Underscore) {
                        tiles.push(m.mode(0)?);
                        rests.push(m.mode(1)?);
                    } else if i < ts.len() {
                        tiles.push(m);
                    } else {
                        rests.push(m);
                    }
                }
                Ok((tiles, rests))
            }
            Tiler::Underscore => Ok((vec![d], vec![])),
            _ => Ok((vec![d.mode(0)?], vec![d.mode(1)?])),
        }
    }
}

fn tiler_rank(t: &Tiler) -> usize {
    match t {
        Tiler::Tuple(v) => v.len(),
        _ => 1,
    }
}

/// The layout and offset of `local_tile(t, tiler, coord)`: the tile at `coord` of `zipped_divide`.
fn local_tile_layout(l: &Layout, tiler: &Tiler, coord: SliceCoord) -> Result<(Layout, i64)> {
    let z = algebra::zipped_divide(l, tiler)?;
    let r0 = tiler_rank(tiler);
    let r1 = z.mode(1)?.rank();
    let rest = match coord {
        SliceCoord::Tuple(mut v) if v.len() <= r1 => {
            v.resize(r1, SliceCoord::All);
            SliceCoord::Tuple(v)
        }
        c => c,
    };
    let first = match tiler {
        Tiler::Tuple(_) => SliceCoord::Tuple(vec![SliceCoord::All; r0]),
        _ => SliceCoord::All,
    };
    slice_layout_and_offset(&SliceCoord::Tuple(vec![first, rest]), &z)
}

/// The layout and offset of `local_partition(t, thr_layout, thr_idx)`.
fn local_partition_layout(l: &Layout, thr: &Layout, thr_idx: i64) -> Result<(Layout, i64)> {
    let thr_size = super::index::shape_size(thr.shape())?;
    if thr_idx < 0 || thr_idx >= thr_size {
        return Err(LayoutError::IndexOutOfRange {
            what: format!("local_partition: thread index in the thread layout {thr}"),
            index: thr_idx,
            bound: thr_size,
        });
    }
    // get_flat_coord: the coordinate whose index is thr_idx (idx2crd by stride), one 1-D
    // coordinate per top-level mode.
    let mut coord = Vec::new();
    let mut tiles = Vec::new();
    for m in thr.modes() {
        let mut c1d = 0i64;
        let mut scale = 1i64;
        for (s, d) in super::index::flat_modes(&m)? {
            let c = if d == 0 { 0 } else { (thr_idx / d) % s };
            c1d += c * scale;
            scale *= s;
        }
        coord.push(SliceCoord::At(c1d));
        tiles.push(Tiler::Int(Int::new(scale, m.shape().is_static())));
    }
    let tiler = Tiler::Tuple(tiles);
    let z = algebra::zipped_divide(l, &tiler)?;
    let r1 = z.mode(1)?.rank();
    let c = SliceCoord::Tuple(vec![
        SliceCoord::Tuple(coord),
        SliceCoord::Tuple(vec![SliceCoord::All; r1]),
    ]);
    slice_layout_and_offset(&c, &z)
}

macro_rules! view_ops {
    ($($(#[$doc:meta])* $name:ident / $name_mut:ident ($($arg:ident : $ty:ty),*) => $body:expr;)*) => {
        impl<E: Engine, L: TensorLayout> Tensor<E, L> {
            $(
                $(#[$doc])*
                pub fn $name(&self, $($arg: $ty),*) -> Result<View<'_, E>> {
                    let l = self.layout().to_runtime();
                    let (nl, off): (Layout, i64) = $body(&l)?;
                    self.relayout(nl, off)
                }
                #[doc = concat!("[`Tensor::", stringify!($name), "`], as a mutable view.")]
                pub fn $name_mut(&mut self, $($arg: $ty),*) -> Result<ViewMut<'_, E>>
                where
                    E: EngineMut,
                {
                    let l = self.layout().to_runtime();
                    let (nl, off): (Layout, i64) = $body(&l)?;
                    self.relayout_mut(nl, off)
                }
            )*
        }
    };
}

view_ops! {
    /// CuTe's `composition(tensor, layout)`: the tensor seen through `L o B`.
    ///
    /// ```
    /// use layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use layout_core::Layout;
    /// let a: Vec<i32> = (0..12).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "12:1".parse::<Layout>().unwrap()).unwrap();
    /// let u = t.compose(&"(3,4):(4,1)".parse().unwrap()).unwrap();   // a row-major 3x4 view
    /// assert_eq!(u.layout().to_string(), "(3,4):(4,1)");
    /// assert_eq!(*u.get((1, 2)).unwrap(), 6);
    /// ```
    compose / compose_mut (b: &Layout) => |l: &Layout| algebra::composition(l, b).map(|r| (r, 0));
    /// CuTe's `zipped_divide(tensor, tiler)`: `((tile...), (rest...))`.
    ///
    /// ```
    /// use layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use layout_core::Layout;
    /// let a = vec![0f32; 48];
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(6,8):(1,6)".parse::<Layout>().unwrap()).unwrap();
    /// let z = t.zipped_divide(&"(_2,_4)".parse().unwrap()).unwrap();
    /// assert_eq!(z.layout().to_string(), "((_2,_4),(3,2)):((1,6),(2,24))");
    /// ```
    zipped_divide / zipped_divide_mut (tiler: &Tiler) => |l: &Layout| algebra::zipped_divide(l, tiler).map(|r| (r, 0));
    /// CuTe's `flat_divide(tensor, tiler)`: `(tile..., rest...)`.
    ///
    /// ```
    /// use layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use layout_core::Layout;
    /// let a = vec![0f32; 48];
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(6,8):(1,6)".parse::<Layout>().unwrap()).unwrap();
    /// let f = t.flat_divide(&"(_2,_4)".parse().unwrap()).unwrap();
    /// assert_eq!(f.layout().to_string(), "(_2,_4,3,2):(1,6,2,24)");
    /// ```
    flat_divide / flat_divide_mut (tiler: &Tiler) => |l: &Layout| algebra::flat_divide(l, tiler).map(|r| (r, 0));
    /// CuTe's `local_tile(tensor, tiler, coord)`: the tile at `coord` (a coordinate of the tile grid;
    /// missing trailing modes are `_`).
    ///
    /// ```
    /// use layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use layout_core::Layout;
    /// let a: Vec<i32> = (0..48).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(6,8):(1,6)".parse::<Layout>().unwrap()).unwrap();
    /// let tile = t.local_tile(&"(_2,_4)".parse().unwrap(), (1, 1)).unwrap();   // rows 2..4, cols 4..8
    /// assert_eq!(tile.layout().to_string(), "(_2,_4):(1,6)");
    /// assert_eq!(*tile.get((0, 0)).unwrap(), 2 + 4 * 6);
    /// ```
    local_tile / local_tile_mut (tiler: &Tiler, coord: impl Into<SliceCoord>) => |l: &Layout| local_tile_layout(l, tiler, coord.into());
    /// CuTe's `local_partition(tensor, thr_layout, thr_idx)`: the elements thread `thr_idx` of the
    /// thread layout owns when the thread layout tiles the tensor (`thr_layout(c) == thr_idx`).
    ///
    /// ```
    /// use layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use layout_core::Layout;
    /// let a: Vec<i32> = (0..64).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(8,8):(1,8)".parse::<Layout>().unwrap()).unwrap();
    /// // 2x4 threads, row-major thread numbering: thread 5 is at (1,1)
    /// let p = t.local_partition(&"(_2,_4):(_4,_1)".parse().unwrap(), 5).unwrap();
    /// assert_eq!(p.layout().to_string(), "(4,2):(2,32)");
    /// assert_eq!(*p.get((0, 0)).unwrap(), 1 + 8);
    /// ```
    local_partition / local_partition_mut (thr_layout: &Layout, thr_idx: i64) => |l: &Layout| local_partition_layout(l, thr_layout, thr_idx);
}
