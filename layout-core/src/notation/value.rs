//! Values that notation expressions evaluate to, with CuTe's printed form.

use super::parse::Tag;
use crate::error::{LayoutError, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::swizzle::{ComposedLayout, Swizzle};
use crate::tiler::Tiler;
use std::fmt;

/// The result of evaluating an expression.
///
/// ```
/// use cute_layout_core::{notation::eval_str, Value};
/// assert!(matches!(eval_str("(_4,_8)").unwrap(), Value::IntTuple(_)));
/// assert!(matches!(eval_str("(_4,_8):(_8,_1)").unwrap(), Value::Layout(_)));
/// assert!(matches!(eval_str("Sw<3,4,3>").unwrap(), Value::Swizzle(_)));
/// assert!(matches!(eval_str("(_4:_2,_)").unwrap(), Value::Tuple(_))); // a tiler
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// An integer, basis element or tuple of them.
    IntTuple(IntTuple),
    /// A layout.
    Layout(Layout),
    /// A composed layout `Sw<B,M,S> o OFFSET o LAYOUT`.
    Composed(ComposedLayout),
    /// A swizzle functor.
    Swizzle(Swizzle),
    /// `_`.
    Underscore,
    /// `LayoutLeft` / `LayoutRight`.
    Tag(Tag),
    /// A tuple that holds something other than integers (a tiler, a coordinate with `_`, a pair of results).
    Tuple(Vec<Value>),
    /// An opaque C++ type name (MMA and copy operations).
    Name(String),
}

impl Value {
    /// Build a tuple value: an [`IntTuple`] when every element is one, a mixed tuple otherwise.
    ///
    /// ```
    /// use cute_layout_core::{Int, Value};
    /// let t = Value::tuple(vec![Value::int(Int::s(2)), Value::int(Int::d(3))]);
    /// assert!(matches!(t, Value::IntTuple(_)));
    /// assert_eq!(t.to_string(), "(_2,3)");
    /// let mixed = Value::tuple(vec![Value::int(Int::s(2)), Value::Underscore]);
    /// assert_eq!((mixed.kind(), mixed.to_string().as_str()), ("a tuple", "(_2,_)"));
    /// ```
    pub fn tuple(elems: Vec<Value>) -> Value {
        if elems.iter().all(|e| matches!(e, Value::IntTuple(_))) {
            Value::IntTuple(IntTuple::Tuple(
                elems
                    .into_iter()
                    .map(|e| match e {
                        Value::IntTuple(t) => t,
                        _ => unreachable!("checked above"),
                    })
                    .collect(),
            ))
        } else {
            Value::Tuple(elems)
        }
    }
    /// An integer value.
    ///
    /// ```
    /// use cute_layout_core::{Int, Value};
    /// assert_eq!(Value::int(Int::s(4)).to_string(), "_4");
    /// ```
    pub fn int(i: Int) -> Value {
        Value::IntTuple(IntTuple::Int(i))
    }
    /// What kind of value this is, for error messages.
    ///
    /// ```
    /// use cute_layout_core::{notation::eval_str, Value};
    /// assert_eq!(eval_str("(_4,_8):(_8,_1)").unwrap().kind(), "a layout");
    /// assert_eq!(Value::Underscore.kind(), "`_`");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            Value::IntTuple(IntTuple::Tuple(_)) => "a tuple",
            Value::IntTuple(IntTuple::Int(_)) => "an integer",
            Value::IntTuple(IntTuple::Basis(_)) => "a basis element",
            Value::Layout(_) => "a layout",
            Value::Composed(_) => "a composed layout",
            Value::Swizzle(_) => "a swizzle",
            Value::Underscore => "`_`",
            Value::Tag(_) => "a layout tag",
            Value::Tuple(_) => "a tuple",
            Value::Name(_) => "a type name",
        }
    }
    /// This value as an IntTuple, or an error.
    ///
    /// ```
    /// use cute_layout_core::notation::eval_str;
    /// assert_eq!(eval_str("(2,(3,4))").unwrap().into_int_tuple().unwrap().to_string(), "(2,(3,4))");
    /// assert!(eval_str("4:1").unwrap().into_int_tuple().is_err());
    /// ```
    pub fn into_int_tuple(self) -> Result<IntTuple> {
        match self {
            Value::IntTuple(t) => Ok(t),
            v => Err(LayoutError::invalid(format!(
                "expected an integer or a tuple of integers, found {} `{v}`",
                v.kind()
            ))),
        }
    }
    /// This value as an integer, or an error.
    ///
    /// ```
    /// use cute_layout_core::notation::eval_str;
    /// assert_eq!(eval_str("size((_4,_8):(_8,_1))").unwrap().into_int().unwrap().to_string(), "_32");
    /// ```
    pub fn into_int(self) -> Result<Int> {
        match self {
            Value::IntTuple(IntTuple::Int(i)) => Ok(i),
            v => Err(LayoutError::invalid(format!(
                "expected an integer, found {} `{v}`",
                v.kind()
            ))),
        }
    }
    /// This value as a layout, or an error.
    ///
    /// ```
    /// use cute_layout_core::notation::eval_str;
    /// let l = eval_str("coalesce((_2,(_1,_6)):(_1,(_6,_2)))").unwrap().into_layout().unwrap();
    /// assert_eq!(l.to_string(), "_12:_1");
    /// ```
    pub fn into_layout(self) -> Result<Layout> {
        match self {
            Value::Layout(l) => Ok(l),
            v => Err(LayoutError::invalid(format!(
                "expected a layout SHAPE:STRIDE, found {} `{v}`",
                v.kind()
            ))),
        }
    }
    /// This value as a tiler: a layout, an integer, `_`, or a tuple of tilers.
    ///
    /// ```
    /// use cute_layout_core::notation::eval_str;
    /// let t = eval_str("(_4:_2,_)").unwrap().into_tiler().unwrap();
    /// assert_eq!((t.rank(), t.to_string().as_str()), (2, "(_4:_2,_)"));
    /// ```
    pub fn into_tiler(self) -> Result<Tiler> {
        match self {
            Value::Layout(l) => Ok(Tiler::Layout(l)),
            Value::IntTuple(IntTuple::Int(i)) => Ok(Tiler::Int(i)),
            Value::IntTuple(IntTuple::Tuple(v)) => Ok(Tiler::Tuple(
                v.into_iter()
                    .map(|e| Value::IntTuple(e).into_tiler())
                    .collect::<Result<_>>()?,
            )),
            Value::Underscore => Ok(Tiler::Underscore),
            Value::Tuple(v) => Ok(Tiler::Tuple(
                v.into_iter()
                    .map(|e| e.into_tiler())
                    .collect::<Result<_>>()?,
            )),
            v => Err(LayoutError::invalid(format!(
                "expected a tiler (layout, shape or tuple of them), found {} `{v}`",
                v.kind()
            ))),
        }
    }
}

impl From<IntTuple> for Value {
    fn from(t: IntTuple) -> Self {
        Value::IntTuple(t)
    }
}
impl From<Int> for Value {
    fn from(i: Int) -> Self {
        Value::IntTuple(IntTuple::Int(i))
    }
}
impl From<Layout> for Value {
    fn from(l: Layout) -> Self {
        Value::Layout(l)
    }
}
impl From<Tiler> for Value {
    fn from(t: Tiler) -> Self {
        match t {
            Tiler::Layout(l) => Value::Layout(l),
            Tiler::Int(i) => Value::int(i),
            Tiler::Underscore => Value::Underscore,
            Tiler::Tuple(v) => Value::tuple(v.into_iter().map(Value::from).collect()),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::IntTuple(t) => write!(f, "{t}"),
            Value::Layout(l) => write!(f, "{l}"),
            Value::Composed(c) => write!(f, "{c}"),
            Value::Swizzle(s) => write!(f, "{s}"),
            Value::Underscore => write!(f, "_"),
            Value::Tag(Tag::LayoutLeft) => write!(f, "LayoutLeft"),
            Value::Tag(Tag::LayoutRight) => write!(f, "LayoutRight"),
            Value::Name(n) => write!(f, "{n}"),
            Value::Tuple(v) => crate::int_tuple::write_tuple(f, v),
        }
    }
}
