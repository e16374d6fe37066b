//! The tensor: an engine and a layout (and the engine offset its first element sits at).

use super::engine::{
    ArrayEngine, ConstViewEngine, Engine, EngineMut, HeapEngine, MemorySpace, ViewEngine,
};
use super::index::RtCoord;
use super::layout::TensorLayout;
use crate::error::{LayoutError, Result};
use crate::{Layout, typed};
use std::ops::{Index, IndexMut};

/// A read-only view of the elements of a tensor with engine `E`: what slicing and tiling return.
///
/// ```
/// use cute_layout_core::tensor::{ConstViewEngine, View, make_gmem_ptr, make_tensor};
/// use cute_layout_core::Layout;
/// let a: Vec<i32> = (0..12).collect();
/// let t = make_tensor(make_gmem_ptr(&a[..]), "(3,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
/// let v: View<'_, ConstViewEngine<'_, i32>> = t.slice((1, ..)).unwrap(); // t(1,_)
/// assert_eq!(v.iter().copied().collect::<Vec<_>>(), vec![4, 5, 6, 7]);
/// ```
pub type View<'a, E, L = Layout> =
    Tensor<ConstViewEngine<'a, <E as Engine>::Value, <E as Engine>::Space>, L>;

/// A mutable view of the elements of a tensor with engine `E`.
///
/// ```
/// use cute_layout_core::tensor::{ViewEngine, ViewMut, make_gmem_ptr, make_tensor};
/// use cute_layout_core::Layout;
/// let mut a: Vec<i32> = (0..12).collect();
/// let mut t = make_tensor(make_gmem_ptr(&mut a[..]), "(3,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
/// let mut row: ViewMut<'_, ViewEngine<'_, i32>> = t.slice_mut((1, ..)).unwrap();
/// row[0] = -1;
/// assert_eq!(a[4], -1);
/// ```
pub type ViewMut<'a, E, L = Layout> =
    Tensor<ViewEngine<'a, <E as Engine>::Value, <E as Engine>::Space>, L>;

/// A tensor: a layout maps a coordinate to an index, the engine maps the index (plus the tensor's
/// offset) to an element. CuTe's `Tensor<Engine, Layout>`.
///
/// Invariant, checked when a tensor is made: every coordinate of the layout's domain lands inside the
/// engine (`0 <= offset + L(c) < len`). Access by an in-range coordinate therefore never fails, and
/// the arithmetic of a walk over the domain cannot overflow (every partial sum lies in the checked
/// index range).
///
/// ```
/// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
/// use cute_layout_core::Layout;
/// let a: Vec<f32> = (0..24).map(|x| x as f32).collect();
/// let l: Layout = "(4,(3,2)):(1,(4,12))".parse().unwrap();
/// let t = make_tensor(make_gmem_ptr(&a[..]), l).unwrap();
/// assert_eq!(t[17], 17.0);             // 1-D coordinate
/// assert_eq!(t[(1, 4)], 17.0);         // R-D coordinate
/// assert_eq!(t[(1, (1, 1))], 17.0);    // natural coordinate
/// assert!(t.get((4, 0)).is_err());     // checked access
/// ```
#[derive(Clone, Debug)]
pub struct Tensor<E, L = Layout> {
    engine: E,
    layout: L,
    offset: i64,
}

fn check_fits<L: TensorLayout>(layout: &L, offset: i64, len: usize) -> Result<()> {
    if let Some((lo, hi)) = layout.bounds()? {
        let lo = offset.checked_add(lo).ok_or(LayoutError::Overflow {
            op: "+",
            lhs: offset,
            rhs: lo,
        })?;
        let hi = offset.checked_add(hi).ok_or(LayoutError::Overflow {
            op: "+",
            lhs: offset,
            rhs: hi,
        })?;
        if lo < 0 || hi >= len as i64 {
            return Err(LayoutError::invalid(format!(
                "the layout {layout} at offset {offset} reaches indices {lo}..={hi} (cosize {}) but the storage holds {len} elements",
                hi + 1
            )));
        }
    }
    Ok(())
}

impl<E: Engine, L: TensorLayout> Tensor<E, L> {
    /// The tensor of `engine` and `layout`; an error when some coordinate of the layout would land
    /// outside the engine (the layout's cosize exceeds the storage).
    ///
    /// ```
    /// use cute_layout_core::tensor::{HeapEngine, Tensor};
    /// use cute_layout_core::Layout;
    /// let e: HeapEngine<i32> = HeapEngine::new((0..6).collect());
    /// let t = Tensor::new(e, "(2,3):(3,1)".parse::<Layout>().unwrap()).unwrap();
    /// assert_eq!(t[(1, 2)], 5);
    /// assert!(Tensor::new(HeapEngine::<i32>::new(vec![0; 5]), "(2,3):(3,1)".parse::<Layout>().unwrap()).is_err());
    /// ```
    pub fn new(engine: E, layout: L) -> Result<Self> {
        Tensor::with_offset(engine, layout, 0)
    }
    /// The tensor whose element `L(0)` is at `offset` in the engine (a sub-view).
    ///
    /// ```
    /// use cute_layout_core::tensor::{HeapEngine, Tensor};
    /// use cute_layout_core::Layout;
    /// let e: HeapEngine<i32> = HeapEngine::new((0..12).collect());
    /// let t = Tensor::with_offset(e, "3:4".parse::<Layout>().unwrap(), 2).unwrap(); // column 2 of a 3x4 row-major
    /// assert_eq!(t.iter().copied().collect::<Vec<_>>(), vec![2, 6, 10]);
    /// ```
    pub fn with_offset(engine: E, layout: L, offset: i64) -> Result<Self> {
        check_fits(&layout, offset, engine.as_slice().len())?;
        Ok(Tensor {
            engine,
            layout,
            offset,
        })
    }
    /// The layout.
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let a: Vec<i32> = (0..12).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(3,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
    /// assert_eq!(t.layout().to_string(), "(3,4):(4,1)");
    /// ```
    pub fn layout(&self) -> &L {
        &self.layout
    }
    /// The engine.
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let a: Vec<i32> = (0..12).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(3,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
    /// use cute_layout_core::tensor::Engine;
    /// assert_eq!(t.engine().as_slice().len(), 12);
    /// ```
    pub fn engine(&self) -> &E {
        &self.engine
    }
    /// The engine, mutably.
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let mut a: Vec<i32> = (0..12).collect();
    /// let mut t = make_tensor(make_gmem_ptr(&mut a[..]), "(3,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
    /// use cute_layout_core::tensor::EngineMut;
    /// t.engine_mut().as_mut_slice()[0] = 9;
    /// assert_eq!(t[(0, 0)], 9);
    /// ```
    pub fn engine_mut(&mut self) -> &mut E {
        &mut self.engine
    }
    /// Engine, layout and offset back.
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let a: Vec<i32> = (0..12).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(3,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
    /// let (_engine, layout, offset) = t.slice((.., 2)).unwrap().into_parts();
    /// assert_eq!((layout.to_string(), offset), ("(3):(4)".to_string(), 2));
    /// ```
    pub fn into_parts(self) -> (E, L, i64) {
        (self.engine, self.layout, self.offset)
    }
    /// Engine (mutably), layout and offset at once, for algorithms that write while walking the layout.
    pub(crate) fn parts_mut(&mut self) -> (&mut E, &L, i64) {
        (&mut self.engine, &self.layout, self.offset)
    }
    /// Where `L(0)` sits in the engine.
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let a: Vec<i32> = (0..12).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(3,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
    /// assert_eq!(t.slice((2, ..)).unwrap().offset(), 8); // t(2,_) starts at element 8
    /// ```
    pub fn offset(&self) -> i64 {
        self.offset
    }
    /// The number of elements (the layout's size).
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let a: Vec<i32> = (0..12).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(3,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
    /// assert_eq!(t.size(), 12);
    /// ```
    pub fn size(&self) -> i64 {
        // Checked when the tensor was made.
        self.layout.size().unwrap_or(0)
    }
    /// The memory space's name (`"gmem"`, `"smem"`, `"rmem"`).
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let a: Vec<i32> = (0..12).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(3,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
    /// assert_eq!(t.memory_space(), "gmem");
    /// ```
    pub fn memory_space(&self) -> &'static str {
        <E::Space as MemorySpace>::NAME
    }
    /// The storage position of layout index `idx`. Inside the engine for every index of the domain.
    #[inline(always)]
    pub(crate) fn pos(&self, idx: i64) -> usize {
        (self.offset + idx) as usize
    }
    /// The elements in colexicographic coordinate order (`t(0), t(1), ...`).
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let a: Vec<i32> = (0..12).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(3,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
    /// // colexicographic: down the first column first
    /// assert_eq!(t.iter().take(4).copied().collect::<Vec<_>>(), vec![0, 4, 8, 1]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = &E::Value> + '_ {
        let data = self.engine.as_slice();
        let off = self.offset;
        self.layout
            .indices()
            .into_iter()
            .flatten()
            .map(move |i| &data[(off + i) as usize])
    }
    /// The element at 1-D coordinate `i` (any layout); an error when `i` is outside `0..size`.
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let a: Vec<i32> = (0..12).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(3,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
    /// assert_eq!(*t.at(1).unwrap(), 4); // 1-D coordinate 1 is (1,0)
    /// assert!(t.at(12).is_err());
    /// ```
    pub fn at(&self, i: i64) -> Result<&E::Value> {
        let idx = self.index_1d(i)?;
        Ok(&self.engine.as_slice()[self.pos(idx)])
    }
    /// The element at 1-D coordinate `i`, mutably.
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let mut a: Vec<i32> = (0..12).collect();
    /// let mut t = make_tensor(make_gmem_ptr(&mut a[..]), "(3,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
    /// *t.at_mut(1).unwrap() = -4;
    /// assert_eq!(a[4], -4);
    /// ```
    pub fn at_mut(&mut self, i: i64) -> Result<&mut E::Value>
    where
        E: EngineMut,
    {
        let idx = self.index_1d(i)?;
        let p = self.pos(idx);
        Ok(&mut self.engine.as_mut_slice()[p])
    }
    fn index_1d(&self, i: i64) -> Result<i64> {
        let l = self.layout.to_runtime();
        super::index::index_1d(i, l.shape(), l.stride())
    }
    /// A read-only view of this tensor (same layout, borrowed elements).
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let a: Vec<i32> = (0..12).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(3,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
    /// let v = t.view();
    /// assert_eq!(v[(2, 3)], 11);
    /// ```
    pub fn view(&self) -> Tensor<ConstViewEngine<'_, E::Value, E::Space>, L> {
        Tensor {
            engine: ConstViewEngine::new(self.engine.as_slice()),
            layout: self.layout.clone(),
            offset: self.offset,
        }
    }
    /// A mutable view of this tensor.
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let mut a: Vec<i32> = (0..12).collect();
    /// let mut t = make_tensor(make_gmem_ptr(&mut a[..]), "(3,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
    /// let mut v = t.view_mut();
    /// v[(2, 3)] = 0;
    /// assert_eq!(a[11], 0);
    /// ```
    pub fn view_mut(&mut self) -> Tensor<ViewEngine<'_, E::Value, E::Space>, L>
    where
        E: EngineMut,
    {
        Tensor {
            engine: ViewEngine::new(self.engine.as_mut_slice()),
            layout: self.layout.clone(),
            offset: self.offset,
        }
    }
    /// The same elements seen through another layout (CuTe's `make_tensor(t.data(), layout)`),
    /// starting at this tensor's offset plus `offset`; an error when the layout reaches outside the
    /// storage.
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let a: Vec<i32> = (0..12).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(3,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
    /// let tr = t.relayout("(4,3):(1,4)".parse::<Layout>().unwrap(), 0).unwrap(); // the transpose
    /// assert_eq!(tr[(3, 1)], 7);
    /// assert!(t.relayout("13:1".parse::<Layout>().unwrap(), 0).is_err()); // past the storage
    /// ```
    pub fn relayout<L2: TensorLayout>(&self, layout: L2, offset: i64) -> Result<View<'_, E, L2>> {
        let off = self
            .offset
            .checked_add(offset)
            .ok_or(LayoutError::Overflow {
                op: "+",
                lhs: self.offset,
                rhs: offset,
            })?;
        Tensor::with_offset(ConstViewEngine::new(self.engine.as_slice()), layout, off)
    }
    /// [`Tensor::relayout`], mutably.
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let mut a: Vec<i32> = (0..12).collect();
    /// let mut t = make_tensor(make_gmem_ptr(&mut a[..]), "(3,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
    /// let mut diag = t.relayout_mut("3:5".parse::<Layout>().unwrap(), 0).unwrap();
    /// diag[2] = -1;
    /// assert_eq!(a[10], -1);
    /// ```
    pub fn relayout_mut<L2: TensorLayout>(
        &mut self,
        layout: L2,
        offset: i64,
    ) -> Result<ViewMut<'_, E, L2>>
    where
        E: EngineMut,
    {
        let off = self
            .offset
            .checked_add(offset)
            .ok_or(LayoutError::Overflow {
                op: "+",
                lhs: self.offset,
                rhs: offset,
            })?;
        Tensor::with_offset(ViewEngine::new(self.engine.as_mut_slice()), layout, off)
    }
}

impl<E: Engine> Tensor<E, Layout> {
    /// The shape.
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let a: Vec<i32> = (0..12).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(3,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
    /// assert_eq!(t.shape().to_string(), "(3,4)");
    /// ```
    pub fn shape(&self) -> &crate::IntTuple {
        self.layout.shape()
    }
    /// The stride.
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let a: Vec<i32> = (0..12).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(3,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
    /// assert_eq!(t.stride().to_string(), "(4,1)");
    /// ```
    pub fn stride(&self) -> &crate::IntTuple {
        self.layout.stride()
    }
    /// Number of top-level modes.
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let a: Vec<i32> = (0..12).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(3,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
    /// assert_eq!(t.rank(), 2);
    /// ```
    pub fn rank(&self) -> usize {
        self.layout.rank()
    }
    /// The index of a coordinate (1-D, R-D or natural), checked.
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let a: Vec<i32> = (0..12).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(3,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
    /// assert_eq!(t.index_of((1, 2)).unwrap(), 6);
    /// assert!(t.index_of((3, 0)).is_err());
    /// ```
    pub fn index_of<X: RtCoord>(&self, coord: X) -> Result<i64> {
        coord.index_in(self.layout.shape(), self.layout.stride())
    }
    /// The element at `coord` (1-D, R-D or natural); an error when the coordinate is out of range or
    /// does not fit the shape.
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let a: Vec<i32> = (0..12).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), "(3,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
    /// assert_eq!(t.get((1, 2)), Ok(&6));
    /// assert!(t.get((1, 4)).is_err());
    /// ```
    pub fn get<X: RtCoord>(&self, coord: X) -> Result<&E::Value> {
        let idx = self.index_of(coord)?;
        Ok(&self.engine.as_slice()[self.pos(idx)])
    }
    /// The element at `coord`, mutably.
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::Layout;
    /// let mut a: Vec<i32> = (0..12).collect();
    /// let mut t = make_tensor(make_gmem_ptr(&mut a[..]), "(3,4):(4,1)".parse::<Layout>().unwrap()).unwrap();
    /// *t.get_mut((1, 2)).unwrap() = 0;
    /// assert_eq!(a[6], 0);
    /// ```
    pub fn get_mut<X: RtCoord>(&mut self, coord: X) -> Result<&mut E::Value>
    where
        E: EngineMut,
    {
        let idx = self.index_of(coord)?;
        let p = self.pos(idx);
        Ok(&mut self.engine.as_mut_slice()[p])
    }
}

impl<E: Engine, X: RtCoord> Index<X> for Tensor<E, Layout> {
    type Output = E::Value;
    /// Panics with the error's message when the coordinate is out of range; use `get` to check.
    #[allow(clippy::panic)] // `Index` panics on a bad index by contract, as slices do; `get` is the checked form
    fn index(&self, coord: X) -> &E::Value {
        match self.get(coord) {
            Ok(v) => v,
            Err(e) => panic!("tensor index: {e}"),
        }
    }
}

impl<E: EngineMut, X: RtCoord> IndexMut<X> for Tensor<E, Layout> {
    #[allow(clippy::panic)] // `Index` panics on a bad index by contract, as slices do; `get` is the checked form
    fn index_mut(&mut self, coord: X) -> &mut E::Value {
        match self.get_mut(coord) {
            Ok(v) => v,
            Err(e) => panic!("tensor index: {e}"),
        }
    }
}

impl<E: Engine, S: typed::Congruent<D>, D: typed::IntTupleT> Tensor<E, typed::Layout<S, D>> {
    /// The element at `coord` (1-D, R-D or natural, as [`typed::Coord`]); `None` when the index falls
    /// outside the storage. As in CuTe, the typed path does not check each mode of the coordinate:
    /// an out-of-range coordinate that still lands inside the storage reads another element.
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::typed::{C, Layout};
    /// let a: Vec<i32> = (0..12).collect();
    /// let t = make_tensor(make_gmem_ptr(&a[..]), Layout::new((C::<3>, C::<4>), (C::<4>, C::<1>))).unwrap();
    /// assert_eq!(t.get((1, 2)), Some(&6));
    /// assert_eq!(t.get((3, 0)), None); // index 12 is past the storage
    /// ```
    #[inline(always)]
    pub fn get<X: typed::Coord<S, D>>(&self, coord: X) -> Option<&E::Value> {
        let i = self.offset.checked_add(self.layout.call(coord))?;
        self.engine.as_slice().get(usize::try_from(i).ok()?)
    }
    /// The element at `coord`, mutably.
    ///
    /// ```
    /// use cute_layout_core::tensor::{make_gmem_ptr, make_tensor};
    /// use cute_layout_core::typed::{C, Layout};
    /// let mut a: Vec<i32> = (0..12).collect();
    /// let mut t = make_tensor(make_gmem_ptr(&mut a[..]), Layout::new((C::<3>, C::<4>), (C::<4>, C::<1>))).unwrap();
    /// *t.get_mut((1, 2)).unwrap() = 0;
    /// assert_eq!(a[6], 0);
    /// ```
    #[inline(always)]
    pub fn get_mut<X: typed::Coord<S, D>>(&mut self, coord: X) -> Option<&mut E::Value>
    where
        E: EngineMut,
    {
        let i = self.offset.checked_add(self.layout.call(coord))?;
        self.engine.as_mut_slice().get_mut(usize::try_from(i).ok()?)
    }
}

impl<E: Engine, S: typed::Congruent<D>, D: typed::IntTupleT, X: typed::Coord<S, D>> Index<X>
    for Tensor<E, typed::Layout<S, D>>
{
    type Output = E::Value;
    #[inline(always)]
    #[allow(clippy::panic)] // `Index` panics on a bad index by contract, as slices do; `get` is the checked form
    fn index(&self, coord: X) -> &E::Value {
        match self.get(coord) {
            Some(v) => v,
            None => panic!("tensor index: the coordinate maps outside the storage"),
        }
    }
}

impl<E: EngineMut, S: typed::Congruent<D>, D: typed::IntTupleT, X: typed::Coord<S, D>> IndexMut<X>
    for Tensor<E, typed::Layout<S, D>>
{
    #[inline(always)]
    #[allow(clippy::panic)] // `Index` panics on a bad index by contract, as slices do; `get` is the checked form
    fn index_mut(&mut self, coord: X) -> &mut E::Value {
        match self.get_mut(coord) {
            Some(v) => v,
            None => panic!("tensor index: the coordinate maps outside the storage"),
        }
    }
}

/// A tensor over existing memory: `make_tensor(make_gmem_ptr(&mut a[..]), layout)` (CuTe's
/// `make_tensor(ptr, layout)`); an error when the layout's cosize exceeds the memory.
///
/// ```
/// use cute_layout_core::tensor::{make_gmem_ptr, make_smem_ptr, make_tensor};
/// use cute_layout_core::Layout;
/// let a = vec![0f32; 128];
/// let gmem_8s = make_tensor(make_gmem_ptr(&a[..]), "_8:_1".parse::<Layout>().unwrap()).unwrap();
/// let gmem_8sx16d = make_tensor(make_gmem_ptr(&a[..]), "(_8,16):(_1,_8)".parse::<Layout>().unwrap()).unwrap();
/// assert_eq!((gmem_8s.size(), gmem_8sx16d.size()), (8, 128));
/// let smem = vec![0f32; 32];
/// let smem_4x8_row = make_tensor(make_smem_ptr(&smem[..]), "(_4,_8):(_8,_1)".parse::<Layout>().unwrap()).unwrap();
/// assert_eq!(smem_4x8_row.memory_space(), "smem");
/// assert!(make_tensor(make_gmem_ptr(&smem[..]), "(_4,_9):(_9,_1)".parse::<Layout>().unwrap()).is_err());
/// ```
pub fn make_tensor<E: Engine, L: TensorLayout>(engine: E, layout: L) -> Result<Tensor<E, L>> {
    Tensor::new(engine, layout)
}

fn cosize_of<L: TensorLayout>(layout: &L) -> Result<usize> {
    match layout.bounds()? {
        None => Ok(0),
        Some((lo, hi)) if lo >= 0 => Ok(hi as usize + 1),
        Some((lo, _)) => Err(LayoutError::invalid(format!(
            "an owning tensor needs a layout with non-negative indices; {layout} reaches {lo}"
        ))),
    }
}

/// An owning tensor on the heap in memory space `M`, elements `T::default()` (CuTe's
/// `make_tensor<T>(layout)`, for layouts of any kind).
///
/// ```
/// use cute_layout_core::tensor::{make_tensor_owned, Gmem};
/// use cute_layout_core::Layout;
/// let t = make_tensor_owned::<f32, Gmem, _>("(4,8):(_1,4)".parse::<Layout>().unwrap()).unwrap();
/// assert_eq!(t.size(), 32);
/// ```
pub fn make_tensor_owned<T: Default + Clone, M: MemorySpace, L: TensorLayout>(
    layout: L,
) -> Result<Tensor<HeapEngine<T, M>, L>> {
    let n = cosize_of(&layout)?;
    Tensor::new(HeapEngine::new(vec![T::default(); n]), layout)
}

/// An owning register tensor in a fixed-size array of `N` elements (CuTe's `make_tensor<T>(layout)`
/// for static layouts: no heap). An error when the layout's cosize exceeds `N`.
///
/// ```
/// use cute_layout_core::tensor::make_tensor_array;
/// use cute_layout_core::typed::{Layout, C};
/// // rmem_4x8_mix: (_4,_8):(_2,_32)
/// let l = Layout::new((C::<4>, C::<8>), (C::<2>, C::<32>));
/// let mut t = make_tensor_array::<f32, 231, _>(l).unwrap();
/// t[(3, 7)] = 1.0;
/// assert_eq!(t.engine().as_slice_ref()[230], 1.0);
/// assert!(make_tensor_array::<f32, 230, _>(l).is_err());
/// ```
pub fn make_tensor_array<T: Default + Copy, const N: usize, L: TensorLayout>(
    layout: L,
) -> Result<Tensor<ArrayEngine<T, N>, L>> {
    Tensor::new(ArrayEngine::default(), layout)
}

impl<T, const N: usize> ArrayEngine<T, N> {
    /// The elements (an inherent alias of [`Engine::as_slice`] that needs no trait import).
    ///
    /// ```
    /// use cute_layout_core::tensor::ArrayEngine;
    /// assert_eq!(ArrayEngine::new([1, 2, 3]).as_slice_ref(), &[1, 2, 3]);
    /// ```
    pub fn as_slice_ref(&self) -> &[T] {
        self.as_slice()
    }
}
