//! Integer leaves: static (`_4`, CuTe's `Int<4>`) or dynamic (`4`, a run-time `int`).
//!
//! Arithmetic follows CuTe's rules: static with static is static, anything with a dynamic operand is
//! dynamic, except the special cases CuTe defines for static zero and one (`_0 * x = _0`, `_0 / x = _0`,
//! `x % _1 = _0`, `_0 % x = _0`). Every operation is checked: overflow and division by zero are errors.
//!
//! ```
//! use cute_layout_core::Int;
//! let a: Int = "_4".parse().unwrap();
//! let b: Int = "6".parse().unwrap();
//! assert_eq!(a.mul(b).unwrap().to_string(), "24");
//! assert_eq!(Int::s(0).mul(b).unwrap().to_string(), "_0");
//! ```
#![deny(clippy::arithmetic_side_effects)] // integers here come from users: checked only

use crate::error::{LayoutError, Result};
use std::fmt;

/// An integer leaf with CuTe's static/dynamic flag.
///
/// ```
/// use cute_layout_core::Int;
/// let four: Int = "_4".parse().unwrap(); // CuTe's Int<4>{}
/// assert_eq!(four, Int { value: 4, is_static: true });
/// assert_eq!(Int::d(4).to_string(), "4");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Int {
    /// The value.
    pub value: i64,
    /// True for a compile-time constant (`_N`), false for a run-time value.
    pub is_static: bool,
}

#[allow(clippy::should_implement_trait)] // checked arithmetic returns Result, so std::ops traits do not fit
impl Int {
    /// A static integer `_v`.
    ///
    /// ```
    /// use cute_layout_core::Int;
    /// assert_eq!(Int::s(8).to_string(), "_8");
    /// ```
    pub const fn s(value: i64) -> Int {
        Int {
            value,
            is_static: true,
        }
    }
    /// A dynamic integer `v`.
    ///
    /// ```
    /// use cute_layout_core::Int;
    /// assert_eq!(Int::d(8).to_string(), "8");
    /// ```
    pub const fn d(value: i64) -> Int {
        Int {
            value,
            is_static: false,
        }
    }
    /// A value with the given staticness.
    ///
    /// ```
    /// use cute_layout_core::Int;
    /// assert_eq!(Int::new(3, true), Int::s(3));
    /// ```
    pub const fn new(value: i64, is_static: bool) -> Int {
        Int { value, is_static }
    }
    /// A boolean as CuTe returns it: `_1`/`_0` when static, `1`/`0` when dynamic.
    ///
    /// ```
    /// use cute_layout_core::Int;
    /// assert_eq!(Int::bool(true, true).to_string(), "_1");
    /// assert_eq!(Int::bool(false, false).to_string(), "0");
    /// ```
    pub const fn bool(b: bool, is_static: bool) -> Int {
        Int {
            value: b as i64,
            is_static,
        }
    }
    fn both(self, o: Int) -> bool {
        self.is_static && o.is_static
    }
    /// True when this is a static integer equal to `v`.
    ///
    /// ```
    /// use cute_layout_core::Int;
    /// assert!(Int::s(1).is_static_eq(1));
    /// assert!(!Int::d(1).is_static_eq(1));
    /// ```
    pub fn is_static_eq(self, v: i64) -> bool {
        self.is_static && self.value == v
    }
    /// Checked sum.
    ///
    /// ```
    /// use cute_layout_core::Int;
    /// assert_eq!(Int::s(2).add(Int::s(3)).unwrap().to_string(), "_5");
    /// assert_eq!(Int::s(2).add(Int::d(3)).unwrap().to_string(), "5");
    /// assert!(Int::d(i64::MAX).add(Int::d(1)).is_err());
    /// ```
    pub fn add(self, o: Int) -> Result<Int> {
        let v = self
            .value
            .checked_add(o.value)
            .ok_or(LayoutError::Overflow {
                op: "+",
                lhs: self.value,
                rhs: o.value,
            })?;
        Ok(Int::new(v, self.both(o)))
    }
    /// Checked difference.
    ///
    /// ```
    /// use cute_layout_core::Int;
    /// assert_eq!(Int::s(2).sub(Int::s(3)).unwrap().to_string(), "_-1");
    /// ```
    pub fn sub(self, o: Int) -> Result<Int> {
        let v = self
            .value
            .checked_sub(o.value)
            .ok_or(LayoutError::Overflow {
                op: "-",
                lhs: self.value,
                rhs: o.value,
            })?;
        Ok(Int::new(v, self.both(o)))
    }
    /// Checked product; a static zero operand gives a static zero.
    ///
    /// ```
    /// use cute_layout_core::Int;
    /// assert_eq!(Int::s(4).mul(Int::d(6)).unwrap().to_string(), "24");
    /// assert_eq!(Int::s(0).mul(Int::d(6)).unwrap().to_string(), "_0");
    /// ```
    pub fn mul(self, o: Int) -> Result<Int> {
        if self.is_static_eq(0) || o.is_static_eq(0) {
            return Ok(Int::s(0));
        }
        let v = self
            .value
            .checked_mul(o.value)
            .ok_or(LayoutError::Overflow {
                op: "*",
                lhs: self.value,
                rhs: o.value,
            })?;
        Ok(Int::new(v, self.both(o)))
    }
    /// Checked truncating division (C semantics); a static zero numerator gives a static zero.
    ///
    /// ```
    /// use cute_layout_core::Int;
    /// assert_eq!(Int::s(-7).div(Int::s(2)).unwrap().to_string(), "_-3");
    /// assert!(Int::d(1).div(Int::d(0)).is_err());
    /// assert_eq!(Int::s(0).div(Int::d(0)).unwrap().to_string(), "_0"); // CuTe's `_0 / int`
    /// ```
    pub fn div(self, o: Int) -> Result<Int> {
        // CuTe's `_0 / int` is `_0` without dividing, even by a run-time zero
        if self.is_static_eq(0) && !o.is_static {
            return Ok(Int::s(0));
        }
        if o.value == 0 {
            return Err(LayoutError::DivisionByZero {
                op: "/",
                lhs: self.value,
            });
        }
        if self.is_static_eq(0) {
            return Ok(Int::s(0));
        }
        let v = self
            .value
            .checked_div(o.value)
            .ok_or(LayoutError::Overflow {
                op: "/",
                lhs: self.value,
                rhs: o.value,
            })?;
        Ok(Int::new(v, self.both(o)))
    }
    /// Checked remainder (C semantics); `x % _1` and `_0 % x` are static zeros.
    ///
    /// ```
    /// use cute_layout_core::Int;
    /// assert_eq!(Int::s(-7).rem(Int::s(2)).unwrap().to_string(), "_-1");
    /// assert_eq!(Int::d(7).rem(Int::s(1)).unwrap().to_string(), "_0");
    /// ```
    pub fn rem(self, o: Int) -> Result<Int> {
        if o.is_static && (o.value == 1 || o.value == -1) {
            return Ok(Int::s(0));
        }
        // CuTe's `_0 % int` is `_0` without dividing, even by a run-time zero
        if self.is_static_eq(0) && !o.is_static {
            return Ok(Int::s(0));
        }
        if o.value == 0 {
            return Err(LayoutError::DivisionByZero {
                op: "%",
                lhs: self.value,
            });
        }
        if self.is_static_eq(0) {
            return Ok(Int::s(0));
        }
        let v = self
            .value
            .checked_rem(o.value)
            .ok_or(LayoutError::Overflow {
                op: "%",
                lhs: self.value,
                rhs: o.value,
            })?;
        Ok(Int::new(v, self.both(o)))
    }
    /// Ceiling division `(a + b - 1) / b` for positive operands, as CuTe's `ceil_div` on integers.
    ///
    /// ```
    /// use cute_layout_core::Int;
    /// assert_eq!(Int::s(10).ceil_div(Int::s(4)).unwrap().to_string(), "_3");
    /// assert_eq!(Int::d(8).ceil_div(Int::s(4)).unwrap().to_string(), "2");
    /// ```
    pub fn ceil_div(self, o: Int) -> Result<Int> {
        if o.value == 0 {
            return Err(LayoutError::DivisionByZero {
                op: "ceil_div",
                lhs: self.value,
            });
        }
        let (a, b) = (self.value, o.value);
        let overflow = LayoutError::Overflow {
            op: "ceil_div",
            lhs: a,
            rhs: b,
        };
        let q = a.checked_div(b).ok_or(overflow.clone())?;
        let inexact = a.checked_rem(b).unwrap_or(0) != 0; // MIN % -1 is 0, as in exact arithmetic
        let v = if inexact && ((a < 0) == (b < 0)) {
            q.checked_add(1).ok_or(overflow)?
        } else {
            q
        };
        Ok(Int::new(v, self.both(o)))
    }
    /// Maximum.
    ///
    /// ```
    /// use cute_layout_core::Int;
    /// assert_eq!(Int::s(2).max(Int::s(5)).to_string(), "_5");
    /// ```
    pub fn max(self, o: Int) -> Int {
        Int::new(self.value.max(o.value), self.both(o))
    }
    /// Minimum.
    ///
    /// ```
    /// use cute_layout_core::Int;
    /// assert_eq!(Int::s(2).min(Int::s(5)).to_string(), "_2");
    /// ```
    pub fn min(self, o: Int) -> Int {
        Int::new(self.value.min(o.value), self.both(o))
    }
    /// Greatest common divisor (non-negative); an error when it is 2^63 (`gcd(i64::MIN, 0)`).
    ///
    /// ```
    /// use cute_layout_core::Int;
    /// assert_eq!(Int::s(12).gcd(Int::s(-18)).unwrap().to_string(), "_6");
    /// ```
    pub fn gcd(self, o: Int) -> Result<Int> {
        Ok(Int::new(gcd_i64(self.value, o.value)?, self.both(o)))
    }
    /// Least common multiple (non-negative), checked.
    ///
    /// ```
    /// use cute_layout_core::Int;
    /// assert_eq!(Int::s(4).lcm(Int::s(6)).unwrap().to_string(), "_12");
    /// ```
    pub fn lcm(self, o: Int) -> Result<Int> {
        let overflow = LayoutError::Overflow {
            op: "lcm",
            lhs: self.value,
            rhs: o.value,
        };
        let g = gcd_i64(self.value, o.value).map_err(|_| overflow.clone())?;
        if g == 0 {
            return Ok(Int::new(0, self.both(o)));
        }
        let v = (self.value.checked_div(g))
            .and_then(|q| q.checked_mul(o.value))
            .and_then(i64::checked_abs)
            .ok_or(overflow)?;
        Ok(Int::new(v, self.both(o)))
    }
    /// Absolute value.
    ///
    /// ```
    /// use cute_layout_core::Int;
    /// assert_eq!(Int::d(-3).abs().unwrap().to_string(), "3");
    /// assert!(Int::d(i64::MIN).abs().is_err());
    /// ```
    pub fn abs(self) -> Result<Int> {
        let v = self.value.checked_abs().ok_or(LayoutError::Overflow {
            op: "abs",
            lhs: self.value,
            rhs: 0,
        })?;
        Ok(Int::new(v, self.is_static))
    }
    /// Negation.
    ///
    /// ```
    /// use cute_layout_core::Int;
    /// assert_eq!(Int::s(3).neg().unwrap().to_string(), "_-3");
    /// ```
    pub fn neg(self) -> Result<Int> {
        let v = self.value.checked_neg().ok_or(LayoutError::Overflow {
            op: "neg",
            lhs: self.value,
            rhs: 0,
        })?;
        Ok(Int::new(v, self.is_static))
    }
    /// `self == o` as a CuTe boolean.
    ///
    /// ```
    /// use cute_layout_core::Int;
    /// assert_eq!(Int::s(3).eq_b(Int::s(3)).to_string(), "_1");
    /// assert_eq!(Int::s(3).eq_b(Int::d(4)).to_string(), "0");
    /// ```
    pub fn eq_b(self, o: Int) -> Int {
        Int::bool(self.value == o.value, self.both(o))
    }
    /// `self < o` as a CuTe boolean.
    ///
    /// ```
    /// use cute_layout_core::Int;
    /// assert_eq!(Int::s(3).lt_b(Int::s(4)).to_string(), "_1");
    /// ```
    pub fn lt_b(self, o: Int) -> Int {
        Int::bool(self.value < o.value, self.both(o))
    }
}

/// Greatest common divisor of two `i64`, always non-negative (`gcd(0, 0) == 0`); an error when it
/// is 2^63, which is not an `i64` (`gcd(i64::MIN, 0)`, `gcd(i64::MIN, i64::MIN)`).
///
/// ```
/// use cute_layout_core::int::gcd_i64;
/// assert_eq!(gcd_i64(12, -18).unwrap(), 6);
/// assert_eq!(gcd_i64(0, 0).unwrap(), 0);
/// assert!(gcd_i64(i64::MIN, 0).is_err());
/// ```
pub fn gcd_i64(a: i64, b: i64) -> Result<i64> {
    let (mut x, mut y) = (a.unsigned_abs(), b.unsigned_abs());
    while y != 0 {
        let t = x.checked_rem(y).unwrap_or(0); // y != 0 here
        x = y;
        y = t;
    }
    i64::try_from(x).map_err(|_| LayoutError::Overflow {
        op: "gcd",
        lhs: a,
        rhs: b,
    })
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_static {
            write!(f, "_{}", self.value)
        } else {
            write!(f, "{}", self.value)
        }
    }
}

impl std::str::FromStr for Int {
    type Err = LayoutError;
    fn from_str(s: &str) -> Result<Int> {
        let (is_static, digits) = match s.strip_prefix('_') {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        digits
            .parse::<i64>()
            .map(|v| Int::new(v, is_static))
            .map_err(|_| LayoutError::Parse {
                pos: 0,
                expected: "an integer such as 4 or _4".into(),
                found: format!("`{s}`"),
            })
    }
}
