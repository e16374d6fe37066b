//! Swizzles `Sw<B,M,S>`: bijections on offsets that XOR `B` bits taken `S` positions above bit `M`
//! into the `B` bits at `M`, and composed layouts `Sw<B,M,S> o OFFSET o LAYOUT` (CuTe's
//! `swizzle.hpp`, `layout_composed.hpp` and `swizzle_layout.hpp`).
//!
//! ```text
//!   offset bits:  ...  YYY  ...  ZZZ  [M bits kept]
//!   Sw<B,M,S>(x) = x ^ ((x & yyy_mask) >> S)      (a negative S shifts left)
//! ```
//!
//! ```
//! use cute_layout_core::{Int, Swizzle};
//! let sw: Swizzle = "Sw<3,4,3>".parse().unwrap();
//! assert_eq!(sw.to_string(), "Sw<3,4,3>");
//! assert_eq!(sw.apply(Int::s(268)).unwrap().to_string(), "_300");
//! assert_eq!(sw.apply(Int::d(100)).unwrap().to_string(), "100");
//! ```

mod composed;
mod product;
mod slice;

pub use composed::{
    ComposedLayout, LayoutFn, composition_layout_swizzle, composition3, layout_eval,
};
pub use product::logical_product_swizzled;
pub use slice::slice_and_offset_swizzled;

use crate::error::{LayoutError, Result};
use crate::int::Int;
use std::fmt;

/// CuTe's `Swizzle<B,M,S>`.
///
/// Invariants (CuTe's `static_assert`s, checked by [`Swizzle::new`]): `B >= 0`, `M >= 0`, `|S| >= B`.
///
/// ```
/// use cute_layout_core::{Int, Swizzle};
/// let sw = Swizzle { bits: 3, base: 4, shift: 3 }; // CuTe's Swizzle<3,4,3>
/// assert_eq!(sw, "Sw<3,4,3>".parse().unwrap());
/// assert_eq!(sw.apply(Int::s(268)).unwrap().to_string(), "_300");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle {
    /// Number of bits in the mask (`B`).
    pub bits: i64,
    /// Number of least-significant bits kept constant (`M`).
    pub base: i64,
    /// Distance of the shift (`S`, may be negative: then the YYY bits lie below the ZZZ bits).
    pub shift: i64,
}

/// Offsets are `i64`; a swizzle whose masks do not fit is rejected.
const MAX_BIT: i64 = 62;

impl Swizzle {
    /// `Sw<B,M,S>`, checking CuTe's conditions: `B >= 0`, `M >= 0`, `|S| >= B`, and that both masks
    /// fit in 62 bits.
    ///
    /// ```
    /// use cute_layout_core::Swizzle;
    /// assert!(Swizzle::new(3, 4, 3).is_ok());
    /// assert!(Swizzle::new(3, 4, 2).is_err()); // |S| < B
    /// ```
    pub fn new(bits: i64, base: i64, shift: i64) -> Result<Swizzle> {
        let sw = Swizzle { bits, base, shift };
        sw.check()?;
        Ok(sw)
    }

    /// Check the invariants of a swizzle built as a struct literal.
    ///
    /// ```
    /// use cute_layout_core::Swizzle;
    /// assert!(Swizzle { bits: 3, base: 4, shift: 3 }.check().is_ok());
    /// assert!(Swizzle { bits: 3, base: 4, shift: 2 }.check().is_err()); // |S| < B
    /// ```
    pub fn check(&self) -> Result<()> {
        let (b, m, s) = (self.bits, self.base, self.shift);
        if b < 0 || m < 0 {
            return Err(LayoutError::invalid(format!(
                "{self}: BBits ({b}) and MBase ({m}) must be non-negative"
            )));
        }
        if s.unsigned_abs() < b.unsigned_abs() {
            return Err(LayoutError::invalid(format!(
                "{self}: abs(SShift) = {} must be at least BBits = {b}",
                s.unsigned_abs()
            )));
        }
        if b.checked_add(m)
            .and_then(|x| x.checked_add(s.abs()))
            .is_none_or(|top| top > MAX_BIT)
        {
            return Err(LayoutError::invalid(format!(
                "{self}: B + M + |S| must be at most {MAX_BIT} for 64-bit offsets"
            )));
        }
        Ok(())
    }

    /// `(1 << B) - 1`.
    ///
    /// ```
    /// use cute_layout_core::Swizzle;
    /// assert_eq!(Swizzle::new(3, 4, 3).unwrap().bit_mask(), 0b111);
    /// ```
    pub fn bit_mask(&self) -> i64 {
        (1i64 << self.bits) - 1
    }

    /// The YYY mask: the bits that are read, `bit_mask << (M + max(0, S))`.
    ///
    /// ```
    /// use cute_layout_core::Swizzle;
    /// assert_eq!(Swizzle::new(3, 4, 3).unwrap().yyy_mask(), 0b11_1000_0000);
    /// ```
    pub fn yyy_mask(&self) -> i64 {
        self.bit_mask() << (self.base + self.shift.max(0))
    }

    /// The ZZZ mask: the bits that are flipped, `bit_mask << (M - min(0, S))`.
    ///
    /// ```
    /// use cute_layout_core::Swizzle;
    /// assert_eq!(Swizzle::new(3, 4, 3).unwrap().zzz_mask(), 0b111_0000);
    /// ```
    pub fn zzz_mask(&self) -> i64 {
        self.bit_mask() << (self.base - self.shift.min(0))
    }

    /// The size of the domain on which the swizzle is a bijection onto itself: `2^(M+B+|S|)`.
    ///
    /// ```
    /// use cute_layout_core::Swizzle;
    /// assert_eq!(Swizzle::new(3, 4, 3).unwrap().domain_size(), 1024);
    /// ```
    pub fn domain_size(&self) -> i64 {
        1i64 << (self.base + self.bits + self.shift.abs())
    }

    /// The swizzle on a raw `i64` offset: `x ^ shiftr(x & yyy_mask, S)` (two's complement for negatives).
    ///
    /// ```
    /// use cute_layout_core::Swizzle;
    /// let sw = Swizzle::new(3, 4, 3).unwrap();
    /// assert_eq!(sw.apply_i64(268), 300); // bit 8 (a YYY bit) flips bit 5 (a ZZZ bit)
    /// assert_eq!(sw.apply_i64(sw.apply_i64(268)), 268); // an involution
    /// ```
    pub fn apply_i64(&self, x: i64) -> i64 {
        let y = x & self.yyy_mask();
        let moved = if self.shift >= 0 {
            y >> self.shift
        } else {
            y << -self.shift
        };
        x ^ moved
    }

    /// `Sw<B,M,S>(offset)`: a static offset gives a static result, a dynamic one a dynamic result.
    ///
    /// Precondition: the swizzle satisfies [`Swizzle::check`]. Postcondition: `apply(apply(x)) == x`.
    ///
    /// ```
    /// use cute_layout_core::{Int, Swizzle};
    /// let sw = Swizzle::new(3, 4, -3).unwrap();
    /// assert_eq!(sw.apply(Int::s(32)).unwrap().to_string(), "_288");
    /// assert_eq!(sw.apply(Int::d(288)).unwrap().to_string(), "32");
    /// ```
    pub fn apply(&self, offset: Int) -> Result<Int> {
        self.check()?;
        Ok(Int::new(self.apply_i64(offset.value), offset.is_static))
    }

    /// CuTe's `make_swizzle<Y, Z>()`: the swizzle whose YYY mask is `y` and whose ZZZ mask is `z`.
    ///
    /// Both masks must be non-negative 32-bit values with the same number of set bits, each a
    /// contiguous run, laid out as a `Swizzle` can represent; `y == z == 0` gives `Sw<0,0,0>`.
    ///
    /// ```
    /// use cute_layout_core::Swizzle;
    /// assert_eq!(Swizzle::from_masks(0b1000, 0b0100).unwrap().to_string(), "Sw<1,2,1>");
    /// assert_eq!(Swizzle::from_masks(0b1100_0000, 0b0000_0110).unwrap().to_string(), "Sw<2,1,5>");
    /// assert!(Swizzle::from_masks(0b1000, 0b0011).is_err());
    /// ```
    pub fn from_masks(y: i64, z: i64) -> Result<Swizzle> {
        if !(0..=u32::MAX as i64).contains(&y) || !(0..=u32::MAX as i64).contains(&z) {
            return Err(LayoutError::invalid(format!(
                "make_swizzle<{y},{z}>: the masks must be unsigned 32-bit values"
            )));
        }
        let (yu, zu) = (y as u32, z as u32);
        let (by, bz) = (yu.count_ones(), zu.count_ones());
        if by != bz {
            return Err(LayoutError::invalid(format!(
                "make_swizzle<{y},{z}>: the number of bits in Y ({by}) and Z ({bz}) don't match"
            )));
        }
        let (ty, tz) = (yu.trailing_zeros() as i64, zu.trailing_zeros() as i64);
        let m = ty.min(tz) % 32;
        let s = ty - tz;
        let sw = Swizzle::new(by as i64, m, s)
            .map_err(|e| LayoutError::invalid(format!("make_swizzle<{y},{z}>: {e}")))?;
        if (sw.yyy_mask() | sw.zzz_mask()) != (y | z) {
            return Err(LayoutError::invalid(format!(
                "make_swizzle<{y},{z}>: the masks are not those of a swizzle ({sw} has Y|Z = {})",
                sw.yyy_mask() | sw.zzz_mask()
            )));
        }
        Ok(sw)
    }

    /// CuTe's `composition(Swizzle, Swizzle)`: merge two swizzles of the same shift into one
    /// (`Y = Y0 ^ Y1`, `Z = Z0 ^ Z1`).
    ///
    /// ```
    /// use cute_layout_core::Swizzle;
    /// let a = Swizzle::new(1, 4, 3).unwrap();
    /// let b = Swizzle::new(1, 5, 3).unwrap();
    /// assert_eq!(a.compose(&b).unwrap().to_string(), "Sw<2,4,3>");
    /// ```
    pub fn compose(&self, other: &Swizzle) -> Result<Swizzle> {
        if self.shift != other.shift {
            return Err(LayoutError::invalid(format!(
                "composition({self},{other}): can only merge swizzles of the same shift"
            )));
        }
        Swizzle::from_masks(
            self.yyy_mask() ^ other.yyy_mask(),
            self.zzz_mask() ^ other.zzz_mask(),
        )
    }

    /// CuTe's `upcast<N>(Swizzle)`: the swizzle on offsets `N` times coarser (`N` a power of two).
    ///
    /// ```
    /// use cute_layout_core::Swizzle;
    /// assert_eq!(Swizzle::new(3, 4, 3).unwrap().upcast(8).unwrap().to_string(), "Sw<3,1,3>");
    /// assert_eq!(Swizzle::new(3, 4, 3).unwrap().upcast(64).unwrap().to_string(), "Sw<1,0,3>");
    /// ```
    pub fn upcast(&self, n: i64) -> Result<Swizzle> {
        let log2 = log2_pow2(n, "upcast")?;
        let new_m = self.base - log2;
        if new_m >= 0 {
            Swizzle::new(self.bits, new_m, self.shift)
        } else {
            Swizzle::new((self.bits + new_m).max(0), 0, self.shift)
        }
    }

    /// CuTe's `downcast<N>(Swizzle)`: the swizzle on offsets `N` times finer (`N` a power of two).
    ///
    /// ```
    /// use cute_layout_core::Swizzle;
    /// assert_eq!(Swizzle::new(3, 1, 3).unwrap().downcast(8).unwrap().to_string(), "Sw<3,4,3>");
    /// ```
    pub fn downcast(&self, n: i64) -> Result<Swizzle> {
        let log2 = log2_pow2(n, "downcast")?;
        Swizzle::new(self.bits, self.base + log2, self.shift)
    }
}

fn log2_pow2(n: i64, op: &str) -> Result<i64> {
    if n <= 0 || n.count_ones() != 1 {
        return Err(LayoutError::invalid(format!(
            "{op}<{n}> of a swizzle: N must be a power of two"
        )));
    }
    Ok(n.trailing_zeros() as i64)
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
            crate::notation::Value::Swizzle(sw) => {
                sw.check()?;
                Ok(sw)
            }
            v => Err(LayoutError::invalid(format!(
                "expected a swizzle Sw<B,M,S>, found {v}"
            ))),
        }
    }
}
