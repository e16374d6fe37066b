//! Composed layouts `A o OFFSET o B` (CuTe's `ComposedLayout<A,O,B>`): the function
//! `c -> A(OFFSET + B(c))`. In practice `A` is a swizzle and `B` a layout (`Sw<3,4,3> o _0 o (_8,_64):(_64,_1)`),
//! but either side may itself be composed (`Sw<2,0,3> o _0 o Sw<2,0,3> o _0 o (_8,_8):(_1,_8)`), and
//! the inverses of a composed layout with a dynamic offset put the layout outside (`_16:_1 o 0 o Sw<1,0,2>`).
//!
//! The domain (shape, size, rank, depth) is that of `B`, as in CuTe.

use super::Swizzle;
use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::notation::Value;
use std::fmt;

/// One side of a composed layout: a layout, a swizzle functor, or another composed layout.
///
/// ```
/// use cute_layout_core::{IntTuple, Layout, LayoutFn, Swizzle};
/// let f: LayoutFn = Swizzle::new(2, 0, 3).unwrap().into();
/// assert_eq!(f.eval(&IntTuple::s(9)).unwrap().to_string(), "_8");
/// let g: LayoutFn = "(_4,_4):(_4,_1)".parse::<Layout>().unwrap().into();
/// assert_eq!(g.eval(&"(1,2)".parse().unwrap()).unwrap().to_string(), "6");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum LayoutFn {
    /// An ordinary layout `S:D`.
    Layout(Layout),
    /// A swizzle functor `Sw<B,M,S>` (a function on offsets).
    Swizzle(Swizzle),
    /// A nested composed layout.
    Composed(Box<ComposedLayout>),
}

/// CuTe's `ComposedLayout<A, Offset, B>`: `c -> A(offset + B(c))`, printed `A o OFFSET o B`.
///
/// ```
/// use cute_layout_core::notation::eval_str;
/// let c = eval_str("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap();
/// assert_eq!(c.to_string(), "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ComposedLayout {
    /// The outer function (usually a swizzle).
    pub layout_a: LayoutFn,
    /// The offset added between the inner and the outer function (usually `_0`).
    pub offset: IntTuple,
    /// The inner function; it defines the domain (usually a layout).
    pub layout_b: LayoutFn,
    /// The bits of an integer offset that CuTe knows only at run time, when it tracks them as a
    /// `MixedBits` value (a slice of a swizzled layout at a dynamic coordinate); 0 otherwise. Only
    /// the printed form depends on it: `M_S|(D&F)=V`.
    pub offset_flags: i64,
}

impl ComposedLayout {
    /// `a o offset o b`, exactly as given (no simplification; see [`composition3`] for CuTe's
    /// `composition(a, offset, b)`, which drops an identity swizzle).
    ///
    /// ```
    /// use cute_layout_core::{ComposedLayout, IntTuple, Layout, Swizzle};
    /// let l: Layout = "(_8,_8):(_8,_1)".parse().unwrap();
    /// let c = ComposedLayout::new(Swizzle::new(0, 4, 3).unwrap(), IntTuple::s(0), l);
    /// assert_eq!(c.to_string(), "Sw<0,4,3> o _0 o (_8,_8):(_8,_1)"); // kept, not simplified
    /// ```
    pub fn new(a: impl Into<LayoutFn>, offset: IntTuple, b: impl Into<LayoutFn>) -> ComposedLayout {
        ComposedLayout {
            layout_a: a.into(),
            offset,
            layout_b: b.into(),
            offset_flags: 0,
        }
    }

    /// The common case `Sw<B,M,S> o _0 o layout`.
    ///
    /// ```
    /// use cute_layout_core::{ComposedLayout, Swizzle};
    /// let c = ComposedLayout::swizzled(Swizzle::new(3, 4, 3).unwrap(), "(_8,_64):(_64,_1)".parse().unwrap());
    /// assert_eq!(c.to_string(), "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)");
    /// ```
    pub fn swizzled(sw: Swizzle, layout: Layout) -> ComposedLayout {
        ComposedLayout::new(sw, IntTuple::s(0), layout)
    }

    /// The swizzle of a `Sw<..> o OFF o B` composed layout, if the outer function is one.
    ///
    /// ```
    /// use cute_layout_core::{ComposedLayout, Swizzle};
    /// let sw = Swizzle::new(3, 4, 3).unwrap();
    /// let c = ComposedLayout::swizzled(sw, "(_8,_64):(_64,_1)".parse().unwrap());
    /// assert_eq!(c.swizzle(), Some(sw));
    /// ```
    pub fn swizzle(&self) -> Option<Swizzle> {
        match &self.layout_a {
            LayoutFn::Swizzle(s) => Some(*s),
            _ => None,
        }
    }

    /// The layout that defines the domain: `layout_b`, looking through nested composed layouts.
    /// An error when the innermost function is a swizzle (it has no shape).
    ///
    /// ```
    /// use cute_layout_core::{ComposedLayout, Swizzle};
    /// let c = ComposedLayout::swizzled(Swizzle::new(3, 4, 3).unwrap(), "(_8,_64):(_64,_1)".parse().unwrap());
    /// assert_eq!(c.domain_layout().unwrap().to_string(), "(_8,_64):(_64,_1)");
    /// ```
    pub fn domain_layout(&self) -> Result<&Layout> {
        match &self.layout_b {
            LayoutFn::Layout(l) => Ok(l),
            LayoutFn::Composed(c) => c.domain_layout(),
            LayoutFn::Swizzle(s) => Err(LayoutError::invalid(format!(
                "{self}: the inner function {s} is a swizzle, which has no shape"
            ))),
        }
    }

    /// `(A o O o B)(c) = A(O + B(c))`.
    ///
    /// ```
    /// use cute_layout_core::{notation::eval_str, IntTuple, Value};
    /// let Value::Composed(c) = eval_str("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap() else { panic!() };
    /// assert_eq!(c.eval(&IntTuple::d(100)).unwrap().to_string(), "300");
    /// assert_eq!(c.eval(&IntTuple::s(100)).unwrap().to_string(), "_300");
    /// ```
    pub fn eval(&self, coord: &IntTuple) -> Result<IntTuple> {
        let inner = self.layout_b.eval(coord)?;
        let sum = add_offset(&self.offset, &inner)?;
        self.layout_a.eval(&sum)
    }
}

fn add_offset(offset: &IntTuple, idx: &IntTuple) -> Result<IntTuple> {
    match (offset, idx) {
        (IntTuple::Int(o), IntTuple::Int(i)) => Ok(IntTuple::Int(o.add(*i)?)),
        _ => Err(LayoutError::invalid(format!(
            "composed layout: cannot add the offset {offset} to {idx} (integers only)"
        ))),
    }
}

impl LayoutFn {
    /// Apply the function: a layout to a coordinate, a swizzle to an integer offset.
    ///
    /// ```
    /// use cute_layout_core::{IntTuple, LayoutFn, Swizzle};
    /// let f = LayoutFn::Swizzle(Swizzle::new(3, 4, 3).unwrap());
    /// assert_eq!(f.eval(&IntTuple::d(268)).unwrap().to_string(), "300");
    /// assert!(f.eval(&"(1,2)".parse().unwrap()).is_err()); // a swizzle takes integer offsets only
    /// ```
    pub fn eval(&self, coord: &IntTuple) -> Result<IntTuple> {
        match self {
            LayoutFn::Layout(l) => layout_eval(l, coord),
            LayoutFn::Swizzle(s) => match coord {
                IntTuple::Int(i) => Ok(IntTuple::Int(s.apply(*i)?)),
                c => Err(LayoutError::invalid(format!(
                    "{s} is a function on integer offsets, not on {c}"
                ))),
            },
            LayoutFn::Composed(c) => c.eval(coord),
        }
    }
}

/// CuTe's three-argument `composition(a, offset, b)`: the composed layout `a o offset o b`, except
/// that an identity swizzle `Sw<0,M,S>` with a static `_0` offset around a plain layout is dropped
/// (`composition(Sw<0,4,3>, _0, L) == L`).
///
/// ```
/// use cute_layout_core::{composition3, IntTuple, Layout, LayoutFn, Swizzle};
/// let l: Layout = "(_8,_8):(_8,_1)".parse().unwrap();
/// let id = composition3(Swizzle::new(0, 4, 3).unwrap().into(), IntTuple::s(0), l.clone().into());
/// assert_eq!(id.to_string(), "(_8,_8):(_8,_1)");
/// let sw = composition3(Swizzle::new(3, 0, 3).unwrap().into(), IntTuple::s(0), l.into());
/// assert_eq!(sw.to_string(), "Sw<3,0,3> o _0 o (_8,_8):(_8,_1)");
/// ```
pub fn composition3(a: LayoutFn, offset: IntTuple, b: LayoutFn) -> LayoutFn {
    let offset_is_static_zero = matches!(offset, IntTuple::Int(i) if i.is_static_eq(0));
    match (&a, &b) {
        (LayoutFn::Swizzle(s), LayoutFn::Layout(_)) if s.bits == 0 && offset_is_static_zero => b,
        _ => LayoutFn::Composed(Box::new(ComposedLayout::new(a, offset, b))),
    }
}

/// CuTe's `composition(Layout, Swizzle)`: `L o Sw` rewritten as `Sw' o L`, where `Sw'` is the swizzle
/// whose masks are `L(yyy_mask)` and `L(zzz_mask)` ("works in simple cases", as CuTe says).
///
/// Errors: the images of the masks are not static integers, or they are not the masks of a swizzle.
///
/// ```
/// use cute_layout_core::{composition_layout_swizzle, Layout, Swizzle};
/// let l: Layout = "(_4,_4):(_4,_1)".parse().unwrap();
/// let r = composition_layout_swizzle(&l, &Swizzle::new(1, 0, 2).unwrap()).unwrap();
/// assert_eq!(r.to_string(), "Sw<1,0,-2> o _0 o (_4,_4):(_4,_1)");
/// ```
pub fn composition_layout_swizzle(l: &Layout, sw: &Swizzle) -> Result<LayoutFn> {
    sw.check()?;
    let image = |mask: i64| -> Result<i64> {
        match layout_eval(l, &IntTuple::s(mask))? {
            IntTuple::Int(i) if i.is_static => Ok(i.value),
            v => Err(LayoutError::NeedsStatic {
                what: format!("composition({l},{sw}): the image of the swizzle mask {mask}"),
                value: v.to_string(),
            }),
        }
    };
    let y = image(sw.yyy_mask())?;
    let z = image(sw.zzz_mask())?;
    let new_sw = Swizzle::from_masks(y, z)
        .map_err(|e| LayoutError::invalid(format!("composition({l},{sw}): {e}")))?;
    Ok(composition3(
        LayoutFn::Swizzle(new_sw),
        IntTuple::s(0),
        LayoutFn::Layout(l.clone()),
    ))
}

/// Evaluate a layout at a coordinate: CuTe's `L(c) = crd2idx(c, shape, stride)` ([`crate::eval`]).
///
/// ```
/// use cute_layout_core::{layout_eval, IntTuple, Layout};
/// let l: Layout = "(_3,(_2,_3)):(_3,(_12,_1))".parse().unwrap();
/// assert_eq!(layout_eval(&l, &"(1,5)".parse().unwrap()).unwrap().to_string(), "17");
/// assert_eq!(layout_eval(&l, &IntTuple::s(16)).unwrap().to_string(), "_17");
/// ```
pub fn layout_eval(l: &Layout, coord: &IntTuple) -> Result<IntTuple> {
    crate::coord::eval(l, coord)
}

impl From<Layout> for LayoutFn {
    fn from(l: Layout) -> Self {
        LayoutFn::Layout(l)
    }
}
impl From<Swizzle> for LayoutFn {
    fn from(s: Swizzle) -> Self {
        LayoutFn::Swizzle(s)
    }
}
impl From<ComposedLayout> for LayoutFn {
    fn from(c: ComposedLayout) -> Self {
        LayoutFn::Composed(Box::new(c))
    }
}

impl From<LayoutFn> for Value {
    fn from(f: LayoutFn) -> Self {
        match f {
            LayoutFn::Layout(l) => Value::Layout(l),
            LayoutFn::Swizzle(s) => Value::Swizzle(s),
            LayoutFn::Composed(c) => Value::Composed(*c),
        }
    }
}

impl LayoutFn {
    /// The function held by a value: a layout, a swizzle or a composed layout; `None` otherwise.
    ///
    /// ```
    /// use cute_layout_core::{notation::eval_str, LayoutFn};
    /// let f = LayoutFn::from_value(&eval_str("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap()).unwrap();
    /// assert!(matches!(f, LayoutFn::Composed(_)));
    /// assert!(LayoutFn::from_value(&eval_str("(_2,_3)").unwrap()).is_none()); // an IntTuple
    /// ```
    pub fn from_value(v: &Value) -> Option<LayoutFn> {
        match v {
            Value::Layout(l) => Some(LayoutFn::Layout(l.clone())),
            Value::Swizzle(s) => Some(LayoutFn::Swizzle(*s)),
            Value::Composed(c) => Some(LayoutFn::Composed(Box::new(c.clone()))),
            _ => None,
        }
    }
}

impl fmt::Display for LayoutFn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutFn::Layout(l) => write!(f, "{l}"),
            LayoutFn::Swizzle(s) => write!(f, "{s}"),
            LayoutFn::Composed(c) => write!(f, "{c}"),
        }
    }
}

impl fmt::Display for ComposedLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.offset, self.offset_flags) {
            (IntTuple::Int(o), flags) if flags != 0 => {
                let v = o.value;
                write!(
                    f,
                    "{} o M_{}|({}&{flags})={v} o {}",
                    self.layout_a,
                    v & !flags,
                    v & flags,
                    self.layout_b
                )
            }
            _ => write!(f, "{} o {} o {}", self.layout_a, self.offset, self.layout_b),
        }
    }
}
