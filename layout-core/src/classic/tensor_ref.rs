//! `TensorRef` (storage + layout: an unbounded tensor) and `TensorView` (adds the extent: a bounded one).
//!
//! The storage is any [`Engine`]: a slice `&[T]`, a mutable slice `&mut [T]`, a `Vec<T>` or one of the
//! tensor engines. Access never goes outside the storage: `at` returns an error for an offset outside it.

use super::{ClassicLayout, TensorCoord};
use crate::error::{LayoutError, Result};
use crate::tensor::{Engine, EngineMut};

/// CUTLASS's `TensorRef<T, Layout>`: storage and a classic layout (no extent).
///
/// ```
/// use cute_layout_core::classic::{ColumnMajor, MatrixCoord, TensorRef};
/// let ldm = 4;
/// let mut data = vec![0i8; 16];
/// let mut r = TensorRef::new(&mut data[..], ColumnMajor::new(ldm));
/// *r.at_mut(MatrixCoord::new(1, 2)).unwrap() = 3;
/// let x = *r.at(MatrixCoord::new(1, 2)).unwrap();
/// *r.at_mut(MatrixCoord::new(1, 2)).unwrap() = x * 2;   // ref.at({row, column}) = x * 2
/// assert_eq!(data[1 + 4 * 2], 6);
/// ```
#[derive(Clone, Debug)]
pub struct TensorRef<E, L> {
    storage: E,
    layout: L,
}

impl<E: Engine, L: ClassicLayout> TensorRef<E, L> {
    /// Storage and layout.
    ///
    /// ```
    /// use cute_layout_core::classic::{ColumnMajor, MatrixCoord, TensorRef};
    /// let data: Vec<i32> = (0..12).collect();
    /// let r = TensorRef::new(&data[..], ColumnMajor::new(4)); // lda = 4
    /// assert_eq!(*r.at(MatrixCoord::new(1, 2)).unwrap(), 9);
    /// ```
    pub fn new(storage: E, layout: L) -> Self {
        TensorRef { storage, layout }
    }
    /// The layout.
    ///
    /// ```
    /// use cute_layout_core::classic::{ColumnMajor, MatrixCoord, TensorRef};
    /// let data: Vec<i32> = (0..12).collect();
    /// let r = TensorRef::new(&data[..], ColumnMajor::new(4)); // lda = 4
    /// assert_eq!(*r.layout(), ColumnMajor::new(4));
    /// ```
    pub fn layout(&self) -> &L {
        &self.layout
    }
    /// The storage.
    ///
    /// ```
    /// use cute_layout_core::classic::{ColumnMajor, MatrixCoord, TensorRef};
    /// let data: Vec<i32> = (0..12).collect();
    /// let r = TensorRef::new(&data[..], ColumnMajor::new(4)); // lda = 4
    /// assert_eq!(r.storage().len(), 12);
    /// ```
    pub fn storage(&self) -> &E {
        &self.storage
    }
    /// Storage and layout back.
    ///
    /// ```
    /// use cute_layout_core::classic::{ColumnMajor, MatrixCoord, TensorRef};
    /// let data: Vec<i32> = (0..12).collect();
    /// let r = TensorRef::new(&data[..], ColumnMajor::new(4)); // lda = 4
    /// let (storage, layout) = r.into_parts();
    /// assert_eq!((storage.len(), layout), (12, ColumnMajor::new(4)));
    /// ```
    pub fn into_parts(self) -> (E, L) {
        (self.storage, self.layout)
    }
    /// The offset of `coord` in the storage; an error when it falls outside the storage.
    ///
    /// ```
    /// use cute_layout_core::classic::{ColumnMajor, MatrixCoord, TensorRef};
    /// let data: Vec<i32> = (0..12).collect();
    /// let r = TensorRef::new(&data[..], ColumnMajor::new(4)); // lda = 4
    /// assert_eq!(r.offset(MatrixCoord::new(3, 2)).unwrap(), 11);
    /// assert!(r.offset(MatrixCoord::new(0, 3)).is_err()); // offset 12: past the storage
    /// ```
    pub fn offset(&self, coord: L::Coord) -> Result<usize> {
        let off = self.layout.offset(coord)?;
        let len = self.storage.as_slice().len();
        usize::try_from(off)
            .ok()
            .filter(|&o| o < len)
            .ok_or_else(|| LayoutError::IndexOutOfRange {
                what: format!("TensorRef::at({coord:?}): offset of the coordinate in a storage of {len} elements"),
                index: off,
                bound: len as i64,
            })
    }
    /// The element at `coord`.
    ///
    /// ```
    /// use cute_layout_core::classic::{ColumnMajor, MatrixCoord, TensorRef};
    /// let data: Vec<i32> = (0..12).collect();
    /// let r = TensorRef::new(&data[..], ColumnMajor::new(4)); // lda = 4
    /// assert_eq!(*r.at(MatrixCoord::new(2, 1)).unwrap(), 6);
    /// ```
    pub fn at(&self, coord: L::Coord) -> Result<&E::Value> {
        let o = self.offset(coord)?;
        Ok(&self.storage.as_slice()[o])
    }
    /// The element at `coord`, mutably.
    ///
    /// ```
    /// use cute_layout_core::classic::{ColumnMajor, MatrixCoord, TensorRef};
    /// let mut data = vec![0i32; 12];
    /// let mut r = TensorRef::new(&mut data[..], ColumnMajor::new(4));
    /// *r.at_mut(MatrixCoord::new(2, 1)).unwrap() = 7;
    /// assert_eq!(data[6], 7);
    /// ```
    pub fn at_mut(&mut self, coord: L::Coord) -> Result<&mut E::Value>
    where
        E: EngineMut,
    {
        let o = self.offset(coord)?;
        Ok(&mut self.storage.as_mut_slice()[o])
    }
}

/// CUTLASS's `TensorView<T, Layout>`: a [`TensorRef`] with an extent.
///
/// Constructing a view whose `capacity(extent)` exceeds the storage is an error.
///
/// ```
/// use cute_layout_core::classic::{ColumnMajor, MatrixCoord, TensorRef, TensorView};
/// let ldm = 5;
/// let mut data = vec![1i32; 5 * 3];
/// let r = TensorRef::new(&mut data[..], ColumnMajor::new(ldm));
/// let mut view = TensorView::new(r, MatrixCoord::new(4, 3)).unwrap();
/// let coord = MatrixCoord::new(3, 2);
/// if view.contains(coord) {
///     let x = *view.at(coord).unwrap();
///     *view.at_mut(coord).unwrap() = x * 2;
/// }
/// assert!(!view.contains(MatrixCoord::new(4, 0)));  // row 4 is padding, not in the view
/// assert!(view.at(MatrixCoord::new(4, 0)).is_err());
/// assert_eq!(data[3 + 5 * 2], 2);
/// ```
#[derive(Clone, Debug)]
pub struct TensorView<E, L: ClassicLayout> {
    reference: TensorRef<E, L>,
    extent: L::Coord,
}

impl<E: Engine, L: ClassicLayout> TensorView<E, L> {
    /// A view of `reference` with the given extent (CUTLASS's `TensorView(ref, extent)`); an error when
    /// the storage holds fewer than `capacity(extent)` elements or an extent is negative.
    ///
    /// ```
    /// use cute_layout_core::classic::{ColumnMajor, MatrixCoord, TensorRef, TensorView};
    /// let data = vec![0i32; 15];
    /// let r = TensorRef::new(&data[..], ColumnMajor::new(5));
    /// assert!(TensorView::new(r.clone(), MatrixCoord::new(4, 3)).is_ok()); // capacity 15
    /// assert!(TensorView::new(r, MatrixCoord::new(4, 4)).is_err()); // capacity 20
    /// ```
    pub fn new(reference: TensorRef<E, L>, extent: L::Coord) -> Result<Self> {
        if extent.components().iter().any(|&e| e < 0) {
            return Err(LayoutError::invalid(format!(
                "TensorView: the extent {extent:?} has a negative component"
            )));
        }
        let cap = reference.layout.capacity(extent)?;
        let len = reference.storage.as_slice().len() as i64;
        if cap > len {
            return Err(LayoutError::invalid(format!(
                "TensorView: the extent {extent:?} needs a capacity of {cap} elements but the storage holds {len}"
            )));
        }
        Ok(TensorView { reference, extent })
    }
    /// A view from storage, layout and extent (CUTLASS's `TensorView(ptr, layout, extent)`).
    ///
    /// ```
    /// use cute_layout_core::classic::{ColumnMajor, MatrixCoord, TensorView};
    /// let data: Vec<i32> = (0..15).collect();
    /// // a 4x3 matrix in a column-major buffer with lda = 5 (one padding row)
    /// let v = TensorView::from_parts(&data[..], ColumnMajor::new(5), MatrixCoord::new(4, 3)).unwrap();
    /// assert_eq!(*v.at(MatrixCoord::new(3, 2)).unwrap(), 13);
    /// ```
    pub fn from_parts(storage: E, layout: L, extent: L::Coord) -> Result<Self> {
        TensorView::new(TensorRef::new(storage, layout), extent)
    }
    /// The extent.
    ///
    /// ```
    /// use cute_layout_core::classic::{ColumnMajor, MatrixCoord, TensorView};
    /// let data: Vec<i32> = (0..15).collect();
    /// // a 4x3 matrix in a column-major buffer with lda = 5 (one padding row)
    /// let v = TensorView::from_parts(&data[..], ColumnMajor::new(5), MatrixCoord::new(4, 3)).unwrap();
    /// assert_eq!(v.extent(), MatrixCoord::new(4, 3));
    /// ```
    pub fn extent(&self) -> L::Coord {
        self.extent
    }
    /// The layout.
    ///
    /// ```
    /// use cute_layout_core::classic::{ColumnMajor, MatrixCoord, TensorView};
    /// let data: Vec<i32> = (0..15).collect();
    /// // a 4x3 matrix in a column-major buffer with lda = 5 (one padding row)
    /// let v = TensorView::from_parts(&data[..], ColumnMajor::new(5), MatrixCoord::new(4, 3)).unwrap();
    /// assert_eq!(*v.layout(), ColumnMajor::new(5));
    /// ```
    pub fn layout(&self) -> &L {
        &self.reference.layout
    }
    /// The reference (storage and layout).
    ///
    /// ```
    /// use cute_layout_core::classic::{ColumnMajor, MatrixCoord, TensorView};
    /// let data: Vec<i32> = (0..15).collect();
    /// // a 4x3 matrix in a column-major buffer with lda = 5 (one padding row)
    /// let v = TensorView::from_parts(&data[..], ColumnMajor::new(5), MatrixCoord::new(4, 3)).unwrap();
    /// assert_eq!(*v.reference().at(MatrixCoord::new(4, 0)).unwrap(), 4); // the padding row, through the ref
    /// ```
    pub fn reference(&self) -> &TensorRef<E, L> {
        &self.reference
    }
    /// The number of elements: the product of the extent.
    ///
    /// ```
    /// use cute_layout_core::classic::{ColumnMajor, MatrixCoord, TensorView};
    /// let data: Vec<i32> = (0..15).collect();
    /// // a 4x3 matrix in a column-major buffer with lda = 5 (one padding row)
    /// let v = TensorView::from_parts(&data[..], ColumnMajor::new(5), MatrixCoord::new(4, 3)).unwrap();
    /// assert_eq!(v.size(), 12);
    /// ```
    pub fn size(&self) -> i64 {
        self.extent.components().iter().product()
    }
    /// The storage needed for the extent (`layout.capacity(extent)`).
    ///
    /// ```
    /// use cute_layout_core::classic::{ColumnMajor, MatrixCoord, TensorView};
    /// let data: Vec<i32> = (0..15).collect();
    /// // a 4x3 matrix in a column-major buffer with lda = 5 (one padding row)
    /// let v = TensorView::from_parts(&data[..], ColumnMajor::new(5), MatrixCoord::new(4, 3)).unwrap();
    /// assert_eq!(v.capacity().unwrap(), 15); // counts the padding row
    /// ```
    pub fn capacity(&self) -> Result<i64> {
        self.reference.layout.capacity(self.extent)
    }
    /// True when `0 <= coord[i] < extent[i]` for every component.
    ///
    /// ```
    /// use cute_layout_core::classic::{ColumnMajor, MatrixCoord, TensorView};
    /// let data: Vec<i32> = (0..15).collect();
    /// // a 4x3 matrix in a column-major buffer with lda = 5 (one padding row)
    /// let v = TensorView::from_parts(&data[..], ColumnMajor::new(5), MatrixCoord::new(4, 3)).unwrap();
    /// assert!(v.contains(MatrixCoord::new(3, 2)));
    /// assert!(!v.contains(MatrixCoord::new(4, 0)));
    /// ```
    pub fn contains(&self, coord: L::Coord) -> bool {
        coord.within(&self.extent)
    }
    fn check(&self, coord: L::Coord) -> Result<()> {
        if self.contains(coord) {
            Ok(())
        } else {
            Err(LayoutError::invalid(format!(
                "TensorView: the coordinate {coord:?} is outside the extent {:?}",
                self.extent
            )))
        }
    }
    /// The element at `coord`; an error when the view does not contain `coord`.
    ///
    /// ```
    /// use cute_layout_core::classic::{ColumnMajor, MatrixCoord, TensorView};
    /// let data: Vec<i32> = (0..15).collect();
    /// // a 4x3 matrix in a column-major buffer with lda = 5 (one padding row)
    /// let v = TensorView::from_parts(&data[..], ColumnMajor::new(5), MatrixCoord::new(4, 3)).unwrap();
    /// assert_eq!(*v.at(MatrixCoord::new(1, 1)).unwrap(), 6);
    /// assert!(v.at(MatrixCoord::new(4, 1)).is_err()); // outside the extent
    /// ```
    pub fn at(&self, coord: L::Coord) -> Result<&E::Value> {
        self.check(coord)?;
        self.reference.at(coord)
    }
    /// The element at `coord`, mutably; an error when the view does not contain `coord`.
    ///
    /// ```
    /// use cute_layout_core::classic::{ColumnMajor, MatrixCoord, TensorView};
    /// let mut data = vec![0i32; 15];
    /// let mut v = TensorView::from_parts(&mut data[..], ColumnMajor::new(5), MatrixCoord::new(4, 3)).unwrap();
    /// *v.at_mut(MatrixCoord::new(3, 2)).unwrap() = 1;
    /// assert_eq!(data[13], 1);
    /// ```
    pub fn at_mut(&mut self, coord: L::Coord) -> Result<&mut E::Value>
    where
        E: EngineMut,
    {
        self.check(coord)?;
        self.reference.at_mut(coord)
    }
    /// The equivalent CuTe layout for this view's extent.
    ///
    /// ```
    /// use cute_layout_core::classic::{ColumnMajor, MatrixCoord, TensorView};
    /// let data: Vec<i32> = (0..15).collect();
    /// // a 4x3 matrix in a column-major buffer with lda = 5 (one padding row)
    /// let v = TensorView::from_parts(&data[..], ColumnMajor::new(5), MatrixCoord::new(4, 3)).unwrap();
    /// assert_eq!(v.to_cute().unwrap().to_string(), "(4,3):(_1,5)");
    /// ```
    pub fn to_cute(&self) -> Result<crate::Layout> {
        self.reference.layout.to_cute(self.extent)
    }
}
