//! Matrix layouts: `PitchLinear`, `ColumnMajor`, `RowMajor` and the interleaved variants.

use super::{ClassicLayout, MatrixCoord, PitchLinearCoord, add, ceil_div, d, divmod, mul, s, t};
use crate::Layout;
use crate::error::{LayoutError, Result};

fn layout(shape: crate::IntTuple, stride: crate::IntTuple) -> Result<Layout> {
    Layout::new(shape, stride)
}

/// CUTLASS's `layout::PitchLinear`: `offset = contiguous + strided * ldm`.
///
/// ```
/// use cute_layout_core::classic::{ClassicLayout, PitchLinear, PitchLinearCoord};
/// let l = PitchLinear::packed(PitchLinearCoord::new(8, 3)).unwrap();
/// assert_eq!(l.stride(), 8);
/// assert_eq!(l.offset(PitchLinearCoord::new(5, 2)).unwrap(), 21);
/// assert_eq!(l.inverse(21).unwrap(), PitchLinearCoord::new(5, 2));
/// assert_eq!(l.to_cute(PitchLinearCoord::new(8, 3)).unwrap().to_string(), "(8,3):(_1,8)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PitchLinear {
    ldm: i64,
}

impl PitchLinear {
    /// The layout with leading dimension `ldm` (elements between consecutive strided coordinates).
    ///
    /// ```
    /// use cute_layout_core::classic::{ClassicLayout, PitchLinear, PitchLinearCoord};
    /// let l = PitchLinear::new(16); // 16 elements between strided coordinates
    /// assert_eq!(l.offset(PitchLinearCoord::new(3, 2)).unwrap(), 35);
    /// ```
    pub const fn new(ldm: i64) -> Self {
        PitchLinear { ldm }
    }
}

impl ClassicLayout for PitchLinear {
    type Coord = PitchLinearCoord;
    type Stride = i64;
    const RANK: usize = 2;
    const STRIDE_RANK: usize = 1;
    fn packed(extent: PitchLinearCoord) -> Result<Self> {
        Ok(PitchLinear::new(extent.contiguous))
    }
    fn offset(&self, c: PitchLinearCoord) -> Result<i64> {
        add(c.contiguous, mul(c.strided, self.ldm)?)
    }
    fn inverse(&self, offset: i64) -> Result<PitchLinearCoord> {
        let (q, r) = divmod(offset, self.ldm)?;
        Ok(PitchLinearCoord::new(r, q))
    }
    fn stride(&self) -> i64 {
        self.ldm
    }
    fn capacity(&self, extent: PitchLinearCoord) -> Result<i64> {
        mul(extent.strided, self.ldm)
    }
    fn to_cute(&self, e: PitchLinearCoord) -> Result<Layout> {
        layout(
            t(vec![d(e.contiguous), d(e.strided)]),
            t(vec![s(1), d(self.ldm)]),
        )
    }
}

/// CUTLASS's `layout::ColumnMajor`: `offset = row + column * ldm` (BLAS's leading dimension).
///
/// ```
/// use cute_layout_core::classic::{ClassicLayout, ColumnMajor, MatrixCoord};
/// let lda = 10;
/// let l = ColumnMajor::new(lda);
/// assert_eq!(l.offset(MatrixCoord::new(3, 2)).unwrap(), 3 + lda * 2);
/// assert_eq!(l.inverse(23).unwrap(), MatrixCoord::new(3, 2));
/// assert_eq!(l.capacity(MatrixCoord::new(8, 4)).unwrap(), 40);
/// assert_eq!(l.to_cute(MatrixCoord::new(8, 4)).unwrap().to_string(), "(8,4):(_1,10)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ColumnMajor {
    ldm: i64,
}

impl ColumnMajor {
    /// The layout with leading dimension `ldm` (elements between consecutive columns).
    ///
    /// ```
    /// use cute_layout_core::classic::{ClassicLayout, ColumnMajor, MatrixCoord};
    /// assert_eq!(ColumnMajor::new(10).offset(MatrixCoord::new(3, 2)).unwrap(), 23);
    /// ```
    pub const fn new(ldm: i64) -> Self {
        ColumnMajor { ldm }
    }
}

impl ClassicLayout for ColumnMajor {
    type Coord = MatrixCoord;
    type Stride = i64;
    const RANK: usize = 2;
    const STRIDE_RANK: usize = 1;
    fn packed(extent: MatrixCoord) -> Result<Self> {
        Ok(ColumnMajor::new(extent.row))
    }
    fn offset(&self, c: MatrixCoord) -> Result<i64> {
        add(c.row, mul(c.column, self.ldm)?)
    }
    fn inverse(&self, offset: i64) -> Result<MatrixCoord> {
        let (q, r) = divmod(offset, self.ldm)?;
        Ok(MatrixCoord::new(r, q))
    }
    fn stride(&self) -> i64 {
        self.ldm
    }
    fn capacity(&self, extent: MatrixCoord) -> Result<i64> {
        mul(extent.column, self.ldm)
    }
    fn to_cute(&self, e: MatrixCoord) -> Result<Layout> {
        layout(t(vec![d(e.row), d(e.column)]), t(vec![s(1), d(self.ldm)]))
    }
}

/// CUTLASS's `layout::RowMajor`: `offset = row * ldm + column`.
///
/// ```
/// use cute_layout_core::classic::{ClassicLayout, MatrixCoord, RowMajor};
/// let l = RowMajor::packed(MatrixCoord::new(4, 6)).unwrap();
/// assert_eq!(l.offset(MatrixCoord::new(2, 5)).unwrap(), 17);
/// assert_eq!(l.inverse(17).unwrap(), MatrixCoord::new(2, 5));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RowMajor {
    ldm: i64,
}

impl RowMajor {
    /// The layout with leading dimension `ldm` (elements between consecutive rows).
    ///
    /// ```
    /// use cute_layout_core::classic::{ClassicLayout, MatrixCoord, RowMajor};
    /// let l = RowMajor::new(8); // 6 columns + 2 padding
    /// assert_eq!(l.offset(MatrixCoord::new(1, 2)).unwrap(), 10);
    /// assert_eq!(l.to_cute(MatrixCoord::new(4, 6)).unwrap().to_string(), "(4,6):(8,_1)");
    /// ```
    pub const fn new(ldm: i64) -> Self {
        RowMajor { ldm }
    }
}

impl ClassicLayout for RowMajor {
    type Coord = MatrixCoord;
    type Stride = i64;
    const RANK: usize = 2;
    const STRIDE_RANK: usize = 1;
    fn packed(extent: MatrixCoord) -> Result<Self> {
        Ok(RowMajor::new(extent.column))
    }
    fn offset(&self, c: MatrixCoord) -> Result<i64> {
        add(mul(c.row, self.ldm)?, c.column)
    }
    fn inverse(&self, offset: i64) -> Result<MatrixCoord> {
        let (q, r) = divmod(offset, self.ldm)?;
        Ok(MatrixCoord::new(q, r))
    }
    fn stride(&self) -> i64 {
        self.ldm
    }
    fn capacity(&self, extent: MatrixCoord) -> Result<i64> {
        mul(extent.row, self.ldm)
    }
    fn to_cute(&self, e: MatrixCoord) -> Result<Layout> {
        layout(t(vec![d(e.row), d(e.column)]), t(vec![d(self.ldm), s(1)]))
    }
}

fn check_interleave(k: i64, what: &str) -> Result<()> {
    if k <= 0 {
        return Err(LayoutError::invalid(format!(
            "{what}: the interleave factor must be positive, found {k}"
        )));
    }
    Ok(())
}

fn divisible(extent: i64, k: i64, what: &str) -> Result<()> {
    if extent % k != 0 {
        return Err(LayoutError::NotDivisible {
            what: format!("{what}: a CuTe layout needs the interleaved extent to be whole blocks"),
            dividend: extent.to_string(),
            divisor: k.to_string(),
        });
    }
    Ok(())
}

/// CUTLASS's `layout::ColumnMajorInterleaved<K>`: a column-major arrangement of row vectors of `K`
/// elements. `offset = (column / K) * ldm + row * K + column % K`.
///
/// ```
/// use cute_layout_core::classic::{ClassicLayout, ColumnMajorInterleaved, MatrixCoord};
/// let e = MatrixCoord::new(3, 4);
/// let l = ColumnMajorInterleaved::<2>::packed(e).unwrap();
/// assert_eq!(l.stride(), 6);
/// assert_eq!(l.offset(MatrixCoord::new(1, 3)).unwrap(), 6 + 2 + 1);
/// assert_eq!(l.inverse(9).unwrap(), MatrixCoord::new(1, 3));
/// assert_eq!(l.to_cute(e).unwrap().to_string(), "(3,(_2,2)):(_2,(_1,6))");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ColumnMajorInterleaved<const K: i64> {
    ldm: i64,
}

impl<const K: i64> ColumnMajorInterleaved<K> {
    /// The interleave factor `K`.
    ///
    /// ```
    /// use cute_layout_core::classic::ColumnMajorInterleaved;
    /// assert_eq!(ColumnMajorInterleaved::<4>::INTERLEAVE, 4);
    /// ```
    pub const INTERLEAVE: i64 = K;
    /// The layout with leading dimension `ldm` (elements between consecutive column blocks).
    ///
    /// ```
    /// use cute_layout_core::classic::{ClassicLayout, ColumnMajorInterleaved, MatrixCoord};
    /// let l = ColumnMajorInterleaved::<2>::new(6);
    /// assert_eq!(l.offset(MatrixCoord::new(1, 3)).unwrap(), 9); // (3/2)*6 + 1*2 + 3%2
    /// ```
    pub const fn new(ldm: i64) -> Self {
        ColumnMajorInterleaved { ldm }
    }
}

impl<const K: i64> ClassicLayout for ColumnMajorInterleaved<K> {
    type Coord = MatrixCoord;
    type Stride = i64;
    const RANK: usize = 2;
    const STRIDE_RANK: usize = 1;
    fn packed(extent: MatrixCoord) -> Result<Self> {
        check_interleave(K, "ColumnMajorInterleaved")?;
        Ok(Self::new(mul(extent.row, K)?))
    }
    fn offset(&self, c: MatrixCoord) -> Result<i64> {
        let (major, minor) = divmod(c.column, K)?;
        add(add(mul(major, self.ldm)?, mul(c.row, K)?)?, minor)
    }
    fn inverse(&self, offset: i64) -> Result<MatrixCoord> {
        let (major, residual) = divmod(offset, self.ldm)?;
        let (row, minor) = divmod(residual, K)?;
        Ok(MatrixCoord::new(row, add(mul(major, K)?, minor)?))
    }
    fn stride(&self) -> i64 {
        self.ldm
    }
    fn capacity(&self, extent: MatrixCoord) -> Result<i64> {
        mul(ceil_div(extent.column, K)?, self.ldm)
    }
    /// `(rows, (_K, columns/K)) : (_K, (_1, ldm))`; the column extent must be a multiple of `K`.
    fn to_cute(&self, e: MatrixCoord) -> Result<Layout> {
        check_interleave(K, "ColumnMajorInterleaved")?;
        divisible(e.column, K, "ColumnMajorInterleaved columns")?;
        layout(
            t(vec![d(e.row), t(vec![s(K), d(e.column / K)])]),
            t(vec![s(K), t(vec![s(1), d(self.ldm)])]),
        )
    }
}

/// CUTLASS's `layout::RowMajorInterleaved<K>`: a row-major arrangement of column vectors of `K`
/// elements. `offset = (row / K) * ldm + column * K + row % K`.
///
/// ```
/// use cute_layout_core::classic::{ClassicLayout, MatrixCoord, RowMajorInterleaved};
/// let e = MatrixCoord::new(4, 3);
/// let l = RowMajorInterleaved::<2>::packed(e).unwrap();
/// assert_eq!(l.offset(MatrixCoord::new(3, 1)).unwrap(), 6 + 2 + 1);
/// assert_eq!(l.inverse(9).unwrap(), MatrixCoord::new(3, 1));
/// assert_eq!(l.to_cute(e).unwrap().to_string(), "((_2,2),3):((_1,6),_2)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RowMajorInterleaved<const K: i64> {
    ldm: i64,
}

impl<const K: i64> RowMajorInterleaved<K> {
    /// The interleave factor `K`.
    ///
    /// ```
    /// use cute_layout_core::classic::RowMajorInterleaved;
    /// assert_eq!(RowMajorInterleaved::<8>::INTERLEAVE, 8);
    /// ```
    pub const INTERLEAVE: i64 = K;
    /// The layout with leading dimension `ldm` (elements between consecutive row blocks).
    ///
    /// ```
    /// use cute_layout_core::classic::{ClassicLayout, MatrixCoord, RowMajorInterleaved};
    /// let l = RowMajorInterleaved::<2>::new(6);
    /// assert_eq!(l.offset(MatrixCoord::new(3, 1)).unwrap(), 9); // (3/2)*6 + 1*2 + 3%2
    /// ```
    pub const fn new(ldm: i64) -> Self {
        RowMajorInterleaved { ldm }
    }
}

impl<const K: i64> ClassicLayout for RowMajorInterleaved<K> {
    type Coord = MatrixCoord;
    type Stride = i64;
    const RANK: usize = 2;
    const STRIDE_RANK: usize = 1;
    fn packed(extent: MatrixCoord) -> Result<Self> {
        check_interleave(K, "RowMajorInterleaved")?;
        Ok(Self::new(mul(extent.column, K)?))
    }
    fn offset(&self, c: MatrixCoord) -> Result<i64> {
        let (major, minor) = divmod(c.row, K)?;
        add(add(mul(major, self.ldm)?, mul(c.column, K)?)?, minor)
    }
    fn inverse(&self, offset: i64) -> Result<MatrixCoord> {
        let (major, residual) = divmod(offset, self.ldm)?;
        let (column, minor) = divmod(residual, K)?;
        Ok(MatrixCoord::new(add(mul(major, K)?, minor)?, column))
    }
    fn stride(&self) -> i64 {
        self.ldm
    }
    fn capacity(&self, extent: MatrixCoord) -> Result<i64> {
        mul(ceil_div(extent.row, K)?, self.ldm)
    }
    /// `((_K, rows/K), columns) : ((_1, ldm), _K)`; the row extent must be a multiple of `K`.
    fn to_cute(&self, e: MatrixCoord) -> Result<Layout> {
        check_interleave(K, "RowMajorInterleaved")?;
        divisible(e.row, K, "RowMajorInterleaved rows")?;
        layout(
            t(vec![t(vec![s(K), d(e.row / K)]), d(e.column)]),
            t(vec![t(vec![s(1), d(self.ldm)]), s(K)]),
        )
    }
}
