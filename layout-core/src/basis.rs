//! Scaled basis elements (`_1@0`, `3@1@0`): strides that map into a coordinate tuple instead of an offset.
//!
//! `E<i,j,...>` is the unit vector that puts its scale at mode `i`, then sub-mode `j`, ... of a coordinate.
//! CuTe prints the mode path innermost first: `E<0,1>` scaled by `_1` prints `_1@1@0`.
//!
//! ```
//! use cute_layout_core::IntTuple;
//! let b: IntTuple = "_1@1@0".parse().unwrap();
//! assert_eq!(b.to_string(), "_1@1@0");
//! ```

use crate::int::Int;
use std::fmt;

/// A scaled basis element: `scale * E<modes...>`.
///
/// ```
/// use cute_layout_core::{Int, IntTuple, ScaledBasis};
/// let e = ScaledBasis { scale: Int::s(2), modes: vec![1, 0] }; // 2 * E<1,0>
/// assert_eq!(e.to_string(), "_2@0@1"); // printed innermost mode first, as CuTe does
/// assert_eq!("_2@0@1".parse::<IntTuple>().unwrap(), IntTuple::Basis(e));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ScaledBasis {
    /// The scale (an integer leaf).
    pub scale: Int,
    /// The mode path `E<modes[0], modes[1], ...>` from outermost to innermost.
    pub modes: Vec<usize>,
}

impl ScaledBasis {
    /// `scale * E<modes...>`.
    ///
    /// ```
    /// use cute_layout_core::{Int, ScaledBasis};
    /// assert_eq!(ScaledBasis::new(Int::s(1), vec![0]).to_string(), "_1@0"); // E<0>
    /// ```
    pub fn new(scale: Int, modes: Vec<usize>) -> Self {
        ScaledBasis { scale, modes }
    }
}

impl fmt::Display for ScaledBasis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.scale)?;
        for m in self.modes.iter().rev() {
            write!(f, "@{m}")?;
        }
        Ok(())
    }
}
