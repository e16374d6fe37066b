//! Activation-tensor layouts: `TensorNHWC` and `TensorNCHW`, both indexed by `(n, h, w, c)`.

use super::{ClassicLayout, Tensor4DCoord, add, d, divmod, mul, s, t};
use crate::Layout;
use crate::error::Result;

/// CUTLASS's `layout::TensorNHWC`: strides `[w, h, n]` (the `c` stride is 1).
/// `offset = c + w * stride[0] + h * stride[1] + n * stride[2]`.
///
/// ```
/// use cute_layout_core::classic::{ClassicLayout, Tensor4DCoord, TensorNHWC};
/// let e = Tensor4DCoord::new(2, 3, 4, 5);
/// let l = TensorNHWC::packed(e).unwrap();
/// assert_eq!(l.stride(), [5, 20, 60]);
/// let c = Tensor4DCoord::new(1, 2, 3, 4);
/// assert_eq!(l.offset(c).unwrap(), 4 + 15 + 40 + 60);
/// assert_eq!(l.inverse(119).unwrap(), c);
/// assert_eq!(l.capacity(e).unwrap(), 120);
/// assert_eq!(l.to_cute(e).unwrap().to_string(), "(2,3,4,5):(60,20,5,_1)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TensorNHWC {
    stride: [i64; 3],
}

impl TensorNHWC {
    /// The layout with strides `[stride_w, stride_h, stride_n]`.
    ///
    /// ```
    /// use cute_layout_core::classic::{ClassicLayout, Tensor4DCoord, TensorNHWC};
    /// let l = TensorNHWC::new([8, 32, 96]); // C padded to 8, W = 4, H = 3
    /// assert_eq!(l.offset(Tensor4DCoord::new(1, 2, 3, 4)).unwrap(), 4 + 3 * 8 + 2 * 32 + 96);
    /// ```
    pub const fn new(stride: [i64; 3]) -> Self {
        TensorNHWC { stride }
    }
}

impl ClassicLayout for TensorNHWC {
    type Coord = Tensor4DCoord;
    type Stride = [i64; 3];
    const RANK: usize = 4;
    const STRIDE_RANK: usize = 3;
    fn packed(e: Tensor4DCoord) -> Result<Self> {
        let wc = mul(e.w, e.c)?;
        Ok(TensorNHWC::new([e.c, wc, mul(e.h, wc)?]))
    }
    fn offset(&self, c: Tensor4DCoord) -> Result<i64> {
        let [sw, sh, sn] = self.stride;
        add(add(add(c.c, mul(sw, c.w)?)?, mul(sh, c.h)?)?, mul(sn, c.n)?)
    }
    fn inverse(&self, offset: i64) -> Result<Tensor4DCoord> {
        let [sw, sh, sn] = self.stride;
        let (n, r) = divmod(offset, sn)?;
        let (h, r) = divmod(r, sh)?;
        let (w, c) = divmod(r, sw)?;
        Ok(Tensor4DCoord::new(n, h, w, c))
    }
    fn stride(&self) -> [i64; 3] {
        self.stride
    }
    fn capacity(&self, e: Tensor4DCoord) -> Result<i64> {
        mul(e.n, self.stride[2])
    }
    /// `(N,H,W,C):(stride_n, stride_h, stride_w, _1)`.
    fn to_cute(&self, e: Tensor4DCoord) -> Result<Layout> {
        let [sw, sh, sn] = self.stride;
        Layout::new(
            t(vec![d(e.n), d(e.h), d(e.w), d(e.c)]),
            t(vec![d(sn), d(sh), d(sw), s(1)]),
        )
    }
}

/// CUTLASS's `layout::TensorNCHW`: strides `[h, c, n]` (the `w` stride is 1), still indexed by
/// `(n, h, w, c)`. `offset = w + h * stride[0] + c * stride[1] + n * stride[2]`.
///
/// ```
/// use cute_layout_core::classic::{ClassicLayout, Tensor4DCoord, TensorNCHW};
/// let e = Tensor4DCoord::new(2, 3, 4, 5);
/// let l = TensorNCHW::packed(e).unwrap();
/// assert_eq!(l.stride(), [4, 12, 60]);
/// let c = Tensor4DCoord::new(1, 2, 3, 4);
/// assert_eq!(l.offset(c).unwrap(), 3 + 8 + 48 + 60);
/// assert_eq!(l.inverse(119).unwrap(), c);
/// assert_eq!(l.to_cute(e).unwrap().to_string(), "(2,3,4,5):(60,4,_1,12)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TensorNCHW {
    stride: [i64; 3],
}

impl TensorNCHW {
    /// The layout with strides `[stride_h, stride_c, stride_n]`.
    ///
    /// ```
    /// use cute_layout_core::classic::{ClassicLayout, Tensor4DCoord, TensorNCHW};
    /// let l = TensorNCHW::new([4, 12, 60]);
    /// assert_eq!(l.offset(Tensor4DCoord::new(1, 2, 3, 4)).unwrap(), 3 + 2 * 4 + 4 * 12 + 60);
    /// ```
    pub const fn new(stride: [i64; 3]) -> Self {
        TensorNCHW { stride }
    }
}

impl ClassicLayout for TensorNCHW {
    type Coord = Tensor4DCoord;
    type Stride = [i64; 3];
    const RANK: usize = 4;
    const STRIDE_RANK: usize = 3;
    fn packed(e: Tensor4DCoord) -> Result<Self> {
        let hw = mul(e.h, e.w)?;
        Ok(TensorNCHW::new([e.w, hw, mul(hw, e.c)?]))
    }
    fn offset(&self, c: Tensor4DCoord) -> Result<i64> {
        let [sh, sc, sn] = self.stride;
        add(add(add(c.w, mul(sh, c.h)?)?, mul(sc, c.c)?)?, mul(sn, c.n)?)
    }
    /// CUTLASS leaves this out; it is the inverse for a packed layout (`n` outermost, then `c`, `h`, `w`).
    fn inverse(&self, offset: i64) -> Result<Tensor4DCoord> {
        let [sh, sc, sn] = self.stride;
        let (n, r) = divmod(offset, sn)?;
        let (c, r) = divmod(r, sc)?;
        let (h, w) = divmod(r, sh)?;
        Ok(Tensor4DCoord::new(n, h, w, c))
    }
    fn stride(&self) -> [i64; 3] {
        self.stride
    }
    fn capacity(&self, e: Tensor4DCoord) -> Result<i64> {
        mul(e.n, self.stride[2])
    }
    /// `(N,H,W,C):(stride_n, stride_h, _1, stride_c)`.
    fn to_cute(&self, e: Tensor4DCoord) -> Result<Layout> {
        let [sh, sc, sn] = self.stride;
        Layout::new(
            t(vec![d(e.n), d(e.h), d(e.w), d(e.c)]),
            t(vec![d(sn), d(sh), s(1), d(sc)]),
        )
    }
}
