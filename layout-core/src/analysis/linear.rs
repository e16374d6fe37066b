//! Power-of-two layouts and swizzles as linear maps over F2 (bits, XOR), the representation of
//! Triton's linear layouts: a map is given by the images of the input bits, and the image of any
//! input is the XOR of the images of its set bits.
//!
//! A layout with power-of-two shapes whose strides never add carries (each output bit is reached by at
//! most one input bit) is such a map, and so is a swizzle composed with one. Back from a map, a layout
//! exists when every basis image is zero or a power of two; otherwise a swizzle `Sw<B,M,S>` is
//! searched that turns the map into a layout, giving `Sw<B,M,S> o _0 o L`.
//!
//! ```
//! use cute_layout_core::analysis::{from_f2, to_f2};
//! use cute_layout_core::{notation::eval_str, LayoutFn};
//! let f = LayoutFn::from_value(&eval_str("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)").unwrap()).unwrap();
//! let m = to_f2(&f).unwrap();
//! assert_eq!(m.bases, vec![64, 128 ^ 16, 256 ^ 32, 1, 2, 4, 8, 16, 32]);
//! // back: the narrowest swizzle that explains the bases; bit 9 is never reached on this domain,
//! // so Sw<2,4,3> is the same function as Sw<3,4,3> here
//! assert_eq!(from_f2(&m).unwrap().to_string(), "Sw<2,4,3> o _0 o (_8,_64):(_64,_1)");
//! ```

use super::{domain_size, point};
use crate::coalesce::coalesce;
use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::swizzle::{LayoutFn, Swizzle, composition3};
use std::fmt;

/// The most domain points [`to_f2`] checks one by one (larger domains are checked on the bases
/// and on every pair of bits).
const FULL_CHECK: i64 = 1 << 20;

/// A linear map over F2 from `bases.len()` input bits: `f(x) = XOR of bases[i] for the set bits i of x`.
///
/// ```
/// use cute_layout_core::analysis::{F2Map, to_f2};
/// use cute_layout_core::{LayoutFn, Swizzle};
/// let m = to_f2(&LayoutFn::Swizzle(Swizzle::new(3, 4, 3).unwrap())).unwrap();
/// // bits 7, 8, 9 also flip bits 4, 5, 6; the others map to themselves
/// assert_eq!(m.bases, vec![1, 2, 4, 8, 16, 32, 64, 144, 288, 576]);
/// assert_eq!(F2Map { bases: vec![2, 1] }.apply(1), 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct F2Map {
    /// The image of input bit `i`.
    pub bases: Vec<i64>,
}

impl F2Map {
    /// Apply the map.
    ///
    /// ```
    /// use cute_layout_core::analysis::F2Map;
    /// let m = F2Map { bases: vec![8, 16, 1, 2, 4] }; // (_4,_8):(_8,_1) on 0..32
    /// assert_eq!(m.apply(0b00101), 8 ^ 1); // index 5 = (1,1) -> 9
    /// ```
    pub fn apply(&self, x: i64) -> i64 {
        self.bases
            .iter()
            .enumerate()
            .filter(|&(i, _)| i < 63 && x >> i & 1 == 1)
            .fold(0, |acc, (_, b)| acc ^ b)
    }
}

/// The F2-linear form of a layout, swizzle or composed layout on `0..size`.
///
/// Errors: the domain size is not a power of two, an image is negative, or the map is not linear
/// (the message names an input where the function and the XOR of the bases differ).
///
/// ```
/// use cute_layout_core::analysis::to_f2;
/// use cute_layout_core::LayoutFn;
/// let m = to_f2(&LayoutFn::Layout("(_4,_8):(_8,_1)".parse().unwrap())).unwrap();
/// assert_eq!(m.bases, vec![8, 16, 1, 2, 4]);
/// assert!(to_f2(&LayoutFn::Layout("(_3,_4):(_1,_3)".parse().unwrap())).is_err()); // 12 points
/// ```
pub fn to_f2(f: &LayoutFn) -> Result<F2Map> {
    let n = domain_size(f)?;
    if n <= 0 || n & (n - 1) != 0 {
        return Err(LayoutError::invalid(format!(
            "{f}: the domain size {n} is not a power of two, so it is not an F2-linear map"
        )));
    }
    let bits = n.trailing_zeros() as usize;
    let bases = (0..bits)
        .map(|i| point(f, 1 << i))
        .collect::<Result<Vec<_>>>()?;
    let map = F2Map { bases };
    let zero = point(f, 0)?;
    let check = |x: i64| -> Result<()> {
        let (got, want) = (point(f, x)?, map.apply(x));
        if got != want || got < 0 {
            return Err(LayoutError::invalid(format!(
                "{f} is not F2-linear: f({x}) = {got} but the XOR of its bit images is {want}"
            )));
        }
        Ok(())
    };
    if zero != 0 {
        return Err(LayoutError::invalid(format!(
            "{f} is not F2-linear: f(0) = {zero}, not 0"
        )));
    }
    if n <= FULL_CHECK {
        (0..n).try_for_each(check)?;
    } else {
        for i in 0..bits {
            for j in i..bits {
                check((1 << i) | (1 << j))?;
            }
        }
    }
    Ok(map)
}

/// A layout, or a swizzled layout, equal to the map on `0..2^bits` (the swizzle with the fewest bits,
/// then the lowest base, that makes the bases a layout).
///
/// Errors: no layout or `Sw<B,M,S> o _0 o layout` (B up to 5, M and |S| up to 16) has these bases.
///
/// ```
/// use cute_layout_core::analysis::{from_f2, F2Map};
/// assert_eq!(from_f2(&F2Map { bases: vec![1, 2, 16, 4, 8] }).unwrap().to_string(),
///            "(_4,_2,_4):(_1,_16,_4)");
/// assert_eq!(from_f2(&F2Map { bases: vec![3, 1] }).unwrap().to_string(), "Sw<1,0,1> o _0 o (_2,_2):(_2,_1)");
/// assert!(from_f2(&F2Map { bases: vec![3, 5] }).is_err());
/// ```
pub fn from_f2(map: &F2Map) -> Result<LayoutFn> {
    if map.bases.len() > 62 {
        return Err(LayoutError::invalid(format!(
            "an F2 map of {} input bits: offsets are i64, so at most 62",
            map.bases.len()
        )));
    }
    if let Some(l) = plain(&map.bases)? {
        return Ok(LayoutFn::Layout(l));
    }
    for sw in candidate_swizzles() {
        let moved: Vec<i64> = map.bases.iter().map(|&b| sw.apply_i64(b)).collect();
        if let Some(l) = plain(&moved)? {
            return Ok(composition3(sw.into(), IntTuple::s(0), l.into()));
        }
    }
    Err(LayoutError::invalid(format!(
        "the F2 map with bases {:?} is neither a layout nor a swizzled layout",
        map.bases
    )))
}

/// `(2,2,...):(b0,b1,...)` coalesced, when every basis is 0 or a distinct power of two.
fn plain(bases: &[i64]) -> Result<Option<Layout>> {
    let mut seen = 0i64;
    for &b in bases {
        if b < 0 || (b != 0 && (b & (b - 1) != 0 || seen & b != 0)) {
            return Ok(None);
        }
        seen |= b;
    }
    if bases.is_empty() {
        return Ok(Some(Layout::new(IntTuple::s(1), IntTuple::s(0))?));
    }
    let shape = IntTuple::Tuple(vec![IntTuple::s(2); bases.len()]);
    let stride = IntTuple::Tuple(bases.iter().map(|&b| IntTuple::s(b)).collect());
    Ok(Some(coalesce(&Layout::new(shape, stride)?)?))
}

fn candidate_swizzles() -> impl Iterator<Item = Swizzle> {
    (1..=5).flat_map(|b| {
        (0..=16).flat_map(move |m| {
            (b..=16)
                .flat_map(|s| [s, -s])
                .filter_map(move |s| Swizzle::new(b, m, s).ok())
        })
    })
}

impl F2Map {
    /// Triton's view of a thread-value layout's map: the bases of the `register` (value), `lane`
    /// (thread bits 0-4) and `warp` (thread bits 5 and up) input dimensions, given the number of
    /// thread bits (the low bits of the TV index). With a tile shape `(d0, d1, ...)` each basis is
    /// written as Triton writes it, a coordinate `(dim0, dim1, ...)` of the column-major tile index.
    ///
    /// ```
    /// use cute_layout_core::analysis::F2Map;
    /// let m = F2Map { bases: vec![1, 2, 4, 8, 16, 32, 64, 128] };
    /// assert_eq!(m.triton_tv(6, &[]), "register: [64, 128]; lane: [1, 2, 4, 8, 16]; warp: [32]");
    /// assert_eq!(m.triton_tv(7, &[16, 16]),
    ///            "register: [(0, 8)]; lane: [(1, 0), (2, 0), (4, 0), (8, 0), (0, 1)]; warp: [(0, 2), (0, 4)]");
    /// ```
    pub fn triton_tv(&self, thread_bits: usize, tile: &[i64]) -> String {
        let t = thread_bits.min(self.bases.len());
        let lane = t.min(5);
        let coord = |b: i64| -> String {
            if tile.is_empty() || tile.iter().any(|&d| d <= 0) {
                return b.to_string();
            }
            let mut rest = b;
            let parts: Vec<String> = tile
                .iter()
                .enumerate()
                .map(|(k, &d)| {
                    let c = if k + 1 == tile.len() { rest } else { rest % d };
                    rest /= d;
                    c.to_string()
                })
                .collect();
            format!("({})", parts.join(", "))
        };
        let list = |b: &[i64]| b.iter().map(|&x| coord(x)).collect::<Vec<_>>().join(", ");
        format!(
            "register: [{}]; lane: [{}]; warp: [{}]",
            list(&self.bases[t..]),
            list(&self.bases[..lane]),
            list(&self.bases[lane..t])
        )
    }
}

impl fmt::Display for F2Map {
    /// The images of the input bits, `[f(1), f(2), f(4), ...]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b: Vec<String> = self.bases.iter().map(|x| x.to_string()).collect();
        write!(f, "[{}]", b.join(", "))
    }
}
