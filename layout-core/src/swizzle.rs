//! Swizzles `Sw<B,M,S>`: bijections on offsets that XOR `B` bits taken `S` positions above bit `M`
//! into the `B` bits at `M`, and composed layouts `Sw<B,M,S> o OFFSET o LAYOUT`.
//!
//! ```
//! use layout_core::Swizzle;
//! let sw: Swizzle = "Sw<3,4,3>".parse().unwrap();
//! assert_eq!(sw.to_string(), "Sw<3,4,3>");
//! ```

use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use std::fmt;

/// CuTe's `Swizzle<B,M,S>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle {
    /// Number of bits in the mask.
    pub bits: i64,
    /// Number of least-significant bits kept constant.
    pub base: i64,
    /// Distance of the shift (may be negative).
    pub shift: i64,
}

impl fmt::Display for Swizzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sw<{},{},{}>", self.bits, self.base, self.shift)
    }
}

impl std::str::FromStr for Swizzle {
    type Err = LayoutError;
    fn from_str(s: &str) -> Result<Swizzle> {
        match crate::notation::parse_value(s)? {
            crate::notation::Value::Swizzle(sw) => Ok(sw),
            v => Err(LayoutError::invalid(format!(
                "expected a swizzle Sw<B,M,S>, found {v}"
            ))),
        }
    }
}

/// `Sw<B,M,S> o OFFSET o LAYOUT`: the layout, then the offset added, then the swizzle applied.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ComposedLayout {
    /// The outer function (a swizzle).
    pub swizzle: Swizzle,
    /// The offset added between the inner layout and the swizzle.
    pub offset: IntTuple,
    /// The inner layout.
    pub layout: Layout,
}

impl fmt::Display for ComposedLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} o {} o {}", self.swizzle, self.offset, self.layout)
    }
}
