//! Tiling tensors: composition with a layout, `zipped_divide`, `flat_divide`, `local_tile` and
//! `local_partition`. Each computes a new layout (and offset) from the tensor's layout and returns a
//! view of the same elements through it.
//!
//! The layout algebra is the crate's: [`crate::composition`], [`crate::zipped_divide`],
//! [`crate::flat_divide`], [`crate::get_flat_coord`]; the view checks that the new layout stays
//! inside the storage (a tile that does not divide the tensor reaches past it: an error).

use super::base::{Tensor, View, ViewMut};
use super::engine::{Engine, EngineMut};
use super::layout::TensorLayout;
use super::slice::slice_layout_and_offset;
use crate::error::{LayoutError, Result};
use crate::{Coord, IntTuple, Layout, Tiler};

fn tiler_rank(t: &Tiler) -> usize {
    match t {
        Tiler::Tuple(v) => v.len(),
        _ => 1,
    }
}

/// The layout and offset of `local_tile(t, tiler, coord)`: the tile at `coord` of `zipped_divide`.
fn local_tile_layout(l: &Layout, tiler: &Tiler, coord: Coord) -> Result<(Layout, i64)> {
    let z = crate::zipped_divide(l, tiler)?;
    let r0 = tiler_rank(tiler);
    let r1 = z.mode(1)?.rank();
    let rest = match coord {
        Coord::Tuple(mut v) if v.len() <= r1 => {
            v.resize(r1, Coord::Underscore);
            Coord::Tuple(v)
        }
        c => c,
    };
    let first = match tiler {
        Tiler::Tuple(_) => Coord::Tuple(vec![Coord::Underscore; r0]),
        _ => Coord::Underscore,
    };
    slice_layout_and_offset(&Coord::Tuple(vec![first, rest]), &z)
}

/// The layout and offset of `local_partition(t, thr_layout, thr_idx)`: CuTe's
/// `outer_partition(t, product_each(shape(thr)), thr.get_flat_coord(thr_idx))`.
fn local_partition_layout(l: &Layout, thr: &Layout, thr_idx: i64) -> Result<(Layout, i64)> {
    let thr_size = super::index::shape_size(thr.shape())?;
    if thr_idx < 0 || thr_idx >= thr_size {
        return Err(LayoutError::IndexOutOfRange {
            what: format!("local_partition: thread index in the thread layout {thr}"),
            index: thr_idx,
            bound: thr_size,
        });
    }
    let tiler = match crate::product_each(thr.shape())? {
        IntTuple::Tuple(v) => Tiler::Tuple(
            v.iter()
                .map(|e| e.expect_int("local_partition tile").map(Tiler::Int))
                .collect::<Result<_>>()?,
        ),
        e => Tiler::Int(e.expect_int("local_partition tile")?),
    };
    let coord = match crate::get_flat_coord(thr, &IntTuple::d(thr_idx))? {
        t @ IntTuple::Tuple(_) => Coord::from(&t),
        leaf => Coord::Tuple(vec![Coord::from(&leaf)]),
    };
    let z = crate::zipped_divide(l, &tiler)?;
    let r1 = z.mode(1)?.rank();
    let c = Coord::Tuple(vec![coord, Coord::Tuple(vec![Coord::Underscore; r1])]);
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
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let a: Vec<i32> = (0..12).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "12:1".parse::<Layout>().unwrap()).unwrap();
    /// let u = t.compose(&"(3,4):(4,1)".parse().unwrap()).unwrap();   // a row-major 3x4 view
    /// assert_eq!(u.layout().to_string(), "(3,4):(4,1)");
    /// assert_eq!(*u.get((1, 2)).unwrap(), 6);
    /// ```
    compose / compose_mut (b: &Layout) => |l: &Layout| crate::composition(l, b).map(|r| (r, 0));
    /// CuTe's `zipped_divide(tensor, tiler)`: `((tile...), (rest...))`.
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let a = vec![0f32; 48];
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(6,8):(1,6)".parse::<Layout>().unwrap()).unwrap();
    /// let z = t.zipped_divide(&"(_2,_4)".parse().unwrap()).unwrap();
    /// assert_eq!(z.layout().to_string(), "((_2,_4),(3,2)):((1,6),(2,24))");
    /// ```
    zipped_divide / zipped_divide_mut (tiler: &Tiler) => |l: &Layout| crate::zipped_divide(l, tiler).map(|r| (r, 0));
    /// CuTe's `flat_divide(tensor, tiler)`: `(tile..., rest...)`.
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let a = vec![0f32; 48];
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(6,8):(1,6)".parse::<Layout>().unwrap()).unwrap();
    /// let f = t.flat_divide(&"(_2,_4)".parse().unwrap()).unwrap();
    /// assert_eq!(f.layout().to_string(), "(_2,_4,3,2):(1,6,2,24)");
    /// ```
    flat_divide / flat_divide_mut (tiler: &Tiler) => |l: &Layout| crate::flat_divide(l, tiler).map(|r| (r, 0));
    /// CuTe's `local_tile(tensor, tiler, coord)`: the tile at `coord` (a coordinate of the tile grid;
    /// missing trailing modes are `_`).
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let a: Vec<i32> = (0..48).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(6,8):(1,6)".parse::<Layout>().unwrap()).unwrap();
    /// let tile = t.local_tile(&"(_2,_4)".parse().unwrap(), (1, 1)).unwrap();   // rows 2..4, cols 4..8
    /// assert_eq!(tile.layout().to_string(), "(_2,_4):(1,6)");
    /// assert_eq!(*tile.get((0, 0)).unwrap(), 2 + 4 * 6);
    /// ```
    local_tile / local_tile_mut (tiler: &Tiler, coord: impl Into<Coord>) => |l: &Layout| local_tile_layout(l, tiler, coord.into());
    /// CuTe's `local_partition(tensor, thr_layout, thr_idx)`: the elements thread `thr_idx` of the
    /// thread layout owns when the thread layout tiles the tensor (`thr_layout(c) == thr_idx`).
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let a: Vec<i32> = (0..64).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(8,8):(1,8)".parse::<Layout>().unwrap()).unwrap();
    /// // 2x4 threads, row-major thread numbering: thread 5 is at (1,1)
    /// let p = t.local_partition(&"(_2,_4):(_4,_1)".parse().unwrap(), 5).unwrap();
    /// assert_eq!(p.layout().to_string(), "(4,2):(2,32)");
    /// assert_eq!(*p.get((0, 0)).unwrap(), 1 + 8);
    /// ```
    local_partition / local_partition_mut (thr_layout: &Layout, thr_idx: i64) => |l: &Layout| local_partition_layout(l, thr_layout, thr_idx);
}
