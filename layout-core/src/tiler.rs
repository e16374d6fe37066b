//! Tilers: what composition, divides and products take on the right: a layout, an integer (a shape),
//! `_` (keep the mode), or a tuple of tilers applied mode by mode.
//!
//! ```
//! use cute_layout_core::Tiler;
//! let t: Tiler = "(_3:_4,_,_2)".parse().unwrap();
//! assert_eq!(t.to_string(), "(_3:_4,_,_2)");
//! ```

use crate::error::{LayoutError, Result};
use crate::int::Int;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use std::fmt;

/// A tiler (CuTe's `Tile`/`Shape` used as a tiler, or a layout).
///
/// ```
/// use cute_layout_core::{Layout, Tiler, logical_divide};
/// let t: Tiler = "(_4:_2,_)".parse().unwrap();
/// assert_eq!(t.rank(), 2);
/// let l: Layout = "(_8,_6):(_1,_8)".parse().unwrap();
/// assert_eq!(logical_divide(&l, &t).unwrap().to_string(), "((_4,_2),_6):((_2,_1),_8)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Tiler {
    /// A layout used as the tiler.
    Layout(Layout),
    /// An integer: a shape extent (CuTe converts it with `make_layout` or uses stride 1, per operation).
    Int(Int),
    /// `_`: leave this mode as it is.
    Underscore,
    /// Mode-by-mode tilers.
    Tuple(Vec<Tiler>),
}

impl Tiler {
    /// Number of modes (1 unless a tuple).
    ///
    /// ```
    /// use cute_layout_core::Tiler;
    /// assert_eq!("(_4,_,_2:_3)".parse::<Tiler>().unwrap().rank(), 3);
    /// assert_eq!("_4:_1".parse::<Tiler>().unwrap().rank(), 1);
    /// ```
    pub fn rank(&self) -> usize {
        match self {
            Tiler::Tuple(v) => v.len(),
            _ => 1,
        }
    }
}

impl Tiler {
    /// A shape used as a tiler: integers stay integers, tuples tile mode by mode.
    ///
    /// ```
    /// use cute_layout_core::{IntTuple, Tiler};
    /// let t = Tiler::from_shape(&"(_2,(3,_4))".parse::<IntTuple>().unwrap()).unwrap();
    /// assert_eq!(t.to_string(), "(_2,(3,_4))");
    /// ```
    pub fn from_shape(shape: &IntTuple) -> Result<Tiler> {
        match shape {
            IntTuple::Int(i) => Ok(Tiler::Int(*i)),
            IntTuple::Tuple(v) => Ok(Tiler::Tuple(
                v.iter().map(Tiler::from_shape).collect::<Result<_>>()?,
            )),
            IntTuple::Basis(b) => Err(LayoutError::invalid(format!(
                "a basis element {b} cannot be a tiler"
            ))),
        }
    }
}

impl From<Layout> for Tiler {
    fn from(l: Layout) -> Self {
        Tiler::Layout(l)
    }
}

impl fmt::Display for Tiler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tiler::Layout(l) => write!(f, "{l}"),
            Tiler::Int(i) => write!(f, "{i}"),
            Tiler::Underscore => write!(f, "_"),
            Tiler::Tuple(v) => crate::int_tuple::write_tuple(f, v),
        }
    }
}

impl std::str::FromStr for Tiler {
    type Err = LayoutError;
    fn from_str(s: &str) -> Result<Tiler> {
        crate::notation::parse_value(s)?.into_tiler()
    }
}
