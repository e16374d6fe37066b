//! Slicing a swizzled layout `Sw<B,M,S> o OFF o L` (CuTe's `slice_and_offset` in `swizzle_layout.hpp`).
//!
//! The fixed coordinates contribute an offset `o = L(c)`. Its bits outside the swizzle's masks pass
//! through; its bits inside them are folded into the composed layout's offset. When the remaining
//! (sliced) layout reaches both a YYY bit and the ZZZ bit it is XORed into, the result stays swizzled;
//! otherwise it decays to a plain layout whose strides say how each swizzled bit moves (`+-Z` for a
//! ZZZ bit, `Y+-Z` for a YYY bit, the sign chosen by the offset's bits), plus `Sw(offset) + rest`.
//!
//! ```
//! use cute_layout_core::notation::eval_str;
//! let ev = |s: &str| eval_str(s).unwrap().to_string();
//! assert_eq!(ev("slice_and_offset((_,_3),Sw<3,4,3> o _0 o (_8,_64):(_64,_1))"), "(((_2,_4)):((_64,_144)),_3)");
//! assert_eq!(ev("slice_and_offset((_,_,_1),Sw<3,4,3> o _0 o (_8,_64,_2):(_64,_1,_512))"),
//!            "(Sw<3,4,3> o _512 o (_8,_64):(_64,_1),_0)");
//! ```

use super::{ComposedLayout, LayoutFn, Swizzle, composition3};
use crate::composition::composition;
use crate::error::{LayoutError, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::modes::{Coord, slice, slice_offset};

/// An offset whose bits in `dynamic` depend on run-time coordinates (CuTe's `MixedBits`).
#[derive(Clone, Copy)]
struct Mixed {
    value: i64,
    dynamic: i64,
}

impl Mixed {
    /// `(self & mask) == 0` as a static or dynamic boolean.
    fn and_is_zero(self, mask: i64) -> (bool, bool) {
        (self.value & mask == 0, self.dynamic & mask == 0)
    }
}

/// The slice of a swizzled composed layout and the offset of its origin: `(Sw o OFF' o slice, rest)` or
/// `(plain layout, offset)`, as CuTe computes it.
///
/// Errors: the coordinate has no `_` (CuTe does not compile that), the inner function is not a
/// layout, an offset is not an integer, a fixed coordinate is
/// fixes a mode whose shape or stride is dynamic (CuTe needs them static), or a composition fails.
///
/// ```
/// use cute_layout_core::{IntTuple, Layout, Swizzle, swizzle::slice_and_offset_swizzled};
/// let inner: Layout = "(_8,_64):(_64,_1)".parse().unwrap();
/// // column 5 of Sw<3,4,3> o _0 o (_8,_64):(_64,_1): rows 2 and 4 flip bits 4 and 5
/// let (col, off) = slice_and_offset_swizzled(&"(_,5)".parse().unwrap(), Swizzle::new(3, 4, 3).unwrap(), &IntTuple::s(0), &inner).unwrap();
/// assert_eq!((col.to_string(), off.to_string()), ("((_2,_2,_2)):((_64,144,288))".into(), "5".into()));
/// ```
pub fn slice_and_offset_swizzled(
    c: &Coord,
    sw: Swizzle,
    offset: &IntTuple,
    inner: &Layout,
) -> Result<(LayoutFn, IntTuple)> {
    if !c.has_underscore() {
        return Err(LayoutError::invalid(format!(
            "slice of {sw} o {offset} o {inner} at {c:?}: the coordinate has no `_`, and CuTe cannot \
             slice a swizzled layout down to nothing (evaluate it instead)"
        )));
    }
    let sliced = slice(c, inner)?;
    let off = as_int(offset)?;
    if !has_int(c) {
        return Ok((
            composition3(sw.into(), offset.clone(), sliced.into()),
            IntTuple::s(0),
        ));
    }
    let fixed = as_int(&slice_offset(c, inner.shape(), inner.stride())?)?;
    let masks = sw.yyy_mask() | sw.zzz_mask();
    // an identity swizzle (no bits) has empty masks: CuTe needs no static fixed modes for it
    let dyn_bits = match dynamic_bits(c, inner.shape(), inner.stride()) {
        Err(LayoutError::NeedsStatic { .. }) if sw.bits == 0 => -1,
        r => r?,
    };
    let only_zy = Mixed {
        value: off.value ^ (fixed.value & masks),
        dynamic: if off.is_static { dyn_bits & masks } else { -1 },
    };
    // Static when the dynamic coordinates only reach swizzled bits (CuTe's projection has stride 0 there).
    let anti_zy = Int {
        value: fixed.value & !masks,
        is_static: fixed.is_static || dyn_bits & !masks == 0,
    };
    if !reducible(sw, &sliced)? {
        let o = Int {
            value: only_zy.value,
            is_static: only_zy.dynamic == 0,
        };
        let mut kept = ComposedLayout::new(sw, IntTuple::Int(o), sliced);
        // CuTe keeps a static offset XORed with run-time coordinate bits as `MixedBits`.
        if off.is_static {
            kept.offset_flags = only_zy.dynamic;
        }
        return Ok((kept.into(), IntTuple::Int(anti_zy)));
    }
    let decayed = composition(&swizzle_layout(sw, only_zy)?, &sliced)?;
    let sw_off = Int {
        value: sw.apply_i64(only_zy.value),
        is_static: only_zy.dynamic == 0,
    };
    Ok((
        LayoutFn::Layout(decayed),
        IntTuple::Int(sw_off.add(anti_zy)?),
    ))
}

fn has_int(c: &Coord) -> bool {
    match c {
        Coord::Int(_) => true,
        Coord::Underscore => false,
        Coord::Tuple(v) => v.iter().any(has_int),
    }
}

fn as_int(t: &IntTuple) -> Result<Int> {
    match t {
        IntTuple::Int(i) => Ok(*i),
        t => Err(LayoutError::invalid(format!(
            "slice of a swizzled layout: the offset {t} must be an integer"
        ))),
    }
}

/// A bit above every swizzle mask (swizzles stay below bit 62), set by [`dynamic_bits`] when a
/// dynamic coordinate fixes a mode of size 1: CuTe's offset from such a mode is a run-time zero.
const UNIT_MODE: i64 = 1 << 62;

/// The bits a dynamic fixed coordinate can set: `(s - 1) * d` over the leaves it indexes (and
/// [`UNIT_MODE`] for a leaf of size 1). CuTe needs static shapes and strides wherever a coordinate
/// is fixed.
fn dynamic_bits(c: &Coord, shape: &IntTuple, stride: &IntTuple) -> Result<i64> {
    match (c, shape, stride) {
        (Coord::Underscore, _, _) => Ok(0),
        (Coord::Int(i), _, _) => {
            shape
                .leaves()
                .iter()
                .zip(stride.leaves())
                .try_fold(0, |acc, (s, d)| match (s, &d) {
                    (IntTuple::Int(s), IntTuple::Int(d)) if s.is_static && d.is_static => {
                        let span = match s.value {
                            1 => UNIT_MODE,
                            _ => (s.value - 1).saturating_mul(d.value),
                        };
                        Ok(acc | if i.is_static { 0 } else { span })
                    }
                    _ => Err(LayoutError::NeedsStatic {
                        what: format!(
                            "slicing a swizzled layout at the coordinate {i}: the mode it fixes, {s}:{d}"
                        ),
                        value: format!("{s}:{d}"),
                    }),
                })
        }
        (Coord::Tuple(cs), IntTuple::Tuple(ss), IntTuple::Tuple(ds)) if cs.len() == ss.len() => cs
            .iter()
            .zip(ss)
            .zip(ds)
            .try_fold(0, |acc, ((c, s), d)| Ok(acc | dynamic_bits(c, s, d)?)),
        _ => Err(LayoutError::invalid(format!(
            "slice of a swizzled layout: the coordinate {c:?} does not fit the shape {shape}"
        ))),
    }
}

/// CuTe's test: the sliced layout's last index, projected on the swizzle masks, has a bit that the
/// swizzle flips (both a YYY bit and its ZZZ bit are reached): then the slice stays swizzled.
fn reducible(sw: Swizzle, sliced: &Layout) -> Result<bool> {
    let last = crate::coord::eval(sliced, &IntTuple::d(crate::query::size(sliced)?.value - 1))?;
    let static_layout = sliced
        .shape()
        .leaves()
        .iter()
        .chain(sliced.stride().leaves().iter())
        .all(|l| matches!(l, IntTuple::Int(i) if i.is_static));
    let IntTuple::Int(last) = last else {
        return Ok(true);
    };
    let active = last.value & (sw.yyy_mask() | sw.zzz_mask());
    Ok(!(static_layout && active & !sw.apply_i64(active) != 0))
}

/// The swizzle as a layout of its bits, given the bits of the offset it is applied at.
fn swizzle_layout(sw: Swizzle, off: Mixed) -> Result<Layout> {
    let (z, y) = (lowest_bit(sw.zzz_mask()), lowest_bit(sw.yyy_mask()));
    let strides = |zy_first: bool| -> Vec<IntTuple> {
        (0..sw.bits)
            .map(|i| {
                let (zero, stat) = off.and_is_zero((if zy_first { y } else { z }) << i);
                let v = match (zy_first, zero) {
                    (true, true) => z << i,
                    (true, false) => -(z << i),
                    (false, true) => (y + z) << i,
                    (false, false) => (y - z) << i,
                };
                IntTuple::Int(Int {
                    value: v,
                    is_static: stat,
                })
            })
            .collect()
    };
    let twos = || IntTuple::Tuple(vec![IntTuple::s(2); sw.bits as usize]);
    let (m, b, s) = (sw.base, sw.bits, sw.shift.abs());
    let shape = IntTuple::Tuple(vec![
        IntTuple::s(1 << m),
        twos(),
        IntTuple::s(1 << (s - b)),
        twos(),
        IntTuple::s(1),
    ]);
    let stride = IntTuple::Tuple(vec![
        IntTuple::s(1),
        IntTuple::Tuple(strides(z < y)),
        IntTuple::s(1 << (m + b)),
        IntTuple::Tuple(strides(z > y)),
        IntTuple::s(1 << (m + b + s)),
    ]);
    Layout::new(shape, stride)
}

fn lowest_bit(x: i64) -> i64 {
    x & x.wrapping_neg()
}

impl ComposedLayout {
    /// CuTe's `slice_and_offset(c, A o OFF o B)`: a swizzle `A` slices as
    /// [`slice_and_offset_swizzled`]; any other `A` slices `B` and adds its offset to `OFF`.
    ///
    /// ```
    /// use cute_layout_core::{notation::eval_str, Coord, Value};
    /// let Value::Composed(c) = eval_str("Sw<2,0,3> o _0 o (_8,_8):(_8,_1)").unwrap() else { panic!() };
    /// let (l, off) = c.slice_and_offset(&"(_5,_)".parse().unwrap()).unwrap();
    /// assert_eq!((l.to_string(), off.to_string()), ("((_2,_4)):((_-1,_2))".into(), "_41".into()));
    /// ```
    pub fn slice_and_offset(&self, c: &Coord) -> Result<(LayoutFn, IntTuple)> {
        let inner = match &self.layout_b {
            LayoutFn::Layout(l) => l,
            f => {
                return Err(LayoutError::invalid(format!(
                    "slice of {self}: the inner function {f} is not a layout"
                )));
            }
        };
        if let LayoutFn::Swizzle(sw) = self.layout_a {
            return slice_and_offset_swizzled(c, sw, &self.offset, inner);
        }
        let (l, off) = crate::modes::slice_and_offset(c, inner)?;
        let sum = IntTuple::Int(as_int(&self.offset)?.add(as_int(&off)?)?);
        Ok((
            ComposedLayout::new(self.layout_a.clone(), sum, l).into(),
            IntTuple::s(0),
        ))
    }
}
