//! Thread-value layouts of MMA and copy instructions ("atoms"), and their tilings.
//!
//! A TV layout maps `(thread, value)` to a position in a tile: thread `t`'s `v`-th register holds element
//! `L(t, v)`. CuTe describes every tensor-core and copy instruction this way ([`MmaTraits`], [`CopyTraits`]),
//! then tiles atoms over more threads and values with the layout algebra (TiledMMA, TiledCopy).
//!
//! * [`mma_traits`]: `Shape_MNK`, `ThrID`, `ALayout`/`BLayout`/`CLayout` of every MMA operation CuTe defines
//!   for SM61 to SM90 (warp-level), and `UniversalFMA`;
//! * [`gmma`]: SM90 warpgroup MMAs (`SM90_64xNxK_..._SS/RS`) and the canonical GMMA shared-memory atoms;
//! * [`copy_traits`]: `ThrID`, `SrcLayout`/`DstLayout`/`RefLayout` (in bits) of universal copies, `cp.async`,
//!   `ldmatrix`, `movmatrix`, `stmatrix`, TMA.
//!
//! Operation names are CuTe's C++ type names, matched exactly (whitespace and `cute::` aside).
//!
//! ```
//! use cute_layout_core::atom::MmaTraits;
//! let t = MmaTraits::from_name("SM80_16x8x8_F16F16F16F16_TN").unwrap();
//! assert_eq!(t.layout_c.to_string(), "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))");
//! ```

pub(crate) mod alg;
pub mod copy_traits;
pub mod gmma;
pub mod mma_traits;
pub mod svg;
pub mod tiled_copy;
pub mod tiled_mma;

pub use copy_traits::{CopyTraits, TmaKind};
pub use mma_traits::MmaTraits;
pub use tiled_copy::{CopyAtom, TiledCopy};
pub use tiled_mma::{Operand, TiledMma};

use crate::error::{LayoutError, Result};
use crate::layout::Layout;
use crate::notation::edit_distance;

/// Parse a layout written in CuTe notation (the traits tables are written this way).
pub(crate) fn layout_of(s: &str) -> Result<Layout> {
    s.parse::<Layout>()
}

/// The width in bits of a C++ value type as CuTe's `sizeof_bits` gives it.
///
/// ```
/// use cute_layout_core::atom::type_bits;
/// assert_eq!(type_bits("uint128_t").unwrap(), 128);
/// assert_eq!(type_bits("half_t").unwrap(), 16);
/// assert_eq!(type_bits("uint_bit_t<4>").unwrap(), 4);
/// assert!(type_bits("widget").is_err());
/// ```
pub fn type_bits(ty: &str) -> Result<i64> {
    let t: String = ty.chars().filter(|c| !c.is_whitespace()).collect();
    let t = t
        .trim_start_matches("cute::")
        .trim_start_matches("cutlass::")
        .trim_start_matches("std::");
    if let Some(n) = t
        .strip_prefix("uint_bit_t<")
        .or_else(|| t.strip_prefix("int_bit_t<"))
        .and_then(|r| r.strip_suffix('>'))
    {
        return match n.parse::<i64>() {
            Ok(b) if b > 0 => Ok(b),
            _ => Err(LayoutError::invalid(format!(
                "`{ty}`: the bit width must be a positive integer"
            ))),
        };
    }
    let bits = match t {
        "uint1_t" | "uint1b_t" | "bin1_t" => 1,
        "int4_t" | "uint4_t" | "int4b_t" | "uint4b_t" => 4,
        "int8_t" | "uint8_t" | "float_e4m3_t" | "float_e5m2_t" => 8,
        "int16_t" | "uint16_t" | "half_t" | "half" | "__half" | "bfloat16_t" => 16,
        "int32_t" | "uint32_t" | "float" | "tfloat32_t" => 32,
        "int64_t" | "uint64_t" | "double" | "complex<float>" => 64,
        "uint128_t" | "int128_t" | "complex<double>" => 128,
        _ => {
            return Err(LayoutError::invalid(format!(
                "unknown value type `{ty}` (expected e.g. uint32_t, half_t, uint_bit_t<16>)"
            )));
        }
    };
    Ok(bits)
}

/// The known name closest to `name` (Levenshtein), if close enough to be a plausible typo.
pub(crate) fn nearest_name<'a>(name: &str, known: &[&'a str]) -> Option<&'a str> {
    if !crate::limits::searchable(name) {
        return None;
    }
    known
        .iter()
        .map(|k| (edit_distance(name, k), *k))
        .filter(|(d, k)| *d <= 3.max(k.len() / 4))
        .min()
        .map(|(_, k)| k)
}
