//! SM90 warpgroup MMA (GMMA, `wgmma.mma_async`): the traits of `SM90_64xNxK_..._SS/RS` and the canonical
//! shared-memory layout atoms (`GMMA::Layout_K_SW128_Atom<T>` and friends).
//!
//! A GMMA is issued by 128 threads (a warpgroup) and computes a `64 x N x K` tile, `N` a multiple of 8 up to
//! 256, `K * sizeof_bits(A) == 256`. `_SS` reads A and B from shared memory through descriptors, so in CuTe's
//! traits every thread "holds" the whole A and B tiles (thread stride 0); `_RS` reads A from registers.
//! The `GMMA::Major` template arguments choose the descriptor, not the layouts.
//!
//! ```
//! use cute_layout_core::atom::MmaTraits;
//! let t = MmaTraits::from_name("SM90_64x64x16_F32F16F16_RS<GMMA::Major::K,GMMA::Major::K>").unwrap();
//! assert_eq!(t.thr_id.to_string(), "_128:_1");
//! assert_eq!(t.layout_a.to_string(), "((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))");
//! assert_eq!(t.layout_c.to_string(), "((_4,_8,_4),(_2,_2,_8)):((_128,_1,_16),(_64,_8,_512))");
//! ```

use super::mma_traits::{MmaTraits, unknown_op};
use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::swizzle::{ComposedLayout, Swizzle};

/// Value types of GMMA operations, spelled as in CuTe's op names, with the bit width of A/B.
const TYPE_COMBOS: &[(&str, u32, bool)] = &[
    // (D A B spelling, bits of A and B, TN-only op spelled with `_TN`)
    ("F16F16F16", 16, false),
    ("F32F16F16", 16, false),
    ("F32BF16BF16", 16, false),
    ("F32TF32TF32", 32, true),
    ("S32S8S8", 8, true),
    ("S32S8U8", 8, true),
    ("S32U8S8", 8, true),
    ("S32U8U8", 8, true),
    ("F32E4M3E4M3", 8, true),
    ("F32E4M3E5M2", 8, true),
    ("F32E5M2E4M3", 8, true),
    ("F32E5M2E5M2", 8, true),
    ("F16E4M3E4M3", 8, true),
    ("F16E4M3E5M2", 8, true),
    ("F16E5M2E4M3", 8, true),
    ("F16E5M2E5M2", 8, true),
];

/// The accumulator layout of a `64 x N` GMMA: `((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512))`.
///
/// ```
/// use cute_layout_core::atom::gmma::gmma_c_layout;
/// assert_eq!(gmma_c_layout(64).unwrap().to_string(), "((_4,_8,_4),(_2,_2,_8)):((_128,_1,_16),(_64,_8,_512))");
/// ```
pub fn gmma_c_layout(n: i64) -> Result<Layout> {
    check_n(n)?;
    super::layout_of(&format!(
        "((_4,_8,_4),(_2,_2,_{})):((_128,_1,_16),(_64,_8,_512))",
        n / 8
    ))
}

/// The register layout of A for `_RS` GMMAs, by the bit width of A (32: tf32 `64x8`, 16: `64x16`, 8: `64x32`).
///
/// ```
/// use cute_layout_core::atom::gmma::gmma_a_register_layout;
/// // 16-bit A: CuTe's GMMA::ALayout_64x16
/// assert_eq!(gmma_a_register_layout(16).unwrap().to_string(), "((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))");
/// ```
pub fn gmma_a_register_layout(bits: u32) -> Result<Layout> {
    match bits {
        8 | 16 | 32 => gmma_a_register_layout_k(256 / bits as i64),
        _ => Err(LayoutError::invalid(format!(
            "GMMA A from registers needs 8-, 16- or 32-bit values, got {bits}"
        ))),
    }
}

/// CuTe's `GMMA::ALayout_64xK` (K = 8, 16, 32 or 64; sparse GMMAs use twice the dense K).
///
/// ```
/// use cute_layout_core::atom::gmma::gmma_a_register_layout_k;
/// assert_eq!(gmma_a_register_layout_k(64).unwrap().to_string(),
///            "((_4,_8,_4),(_8,_2,_2)):((_512,_1,_16),(_64,_8,_2048))");
/// ```
pub fn gmma_a_register_layout_k(k: i64) -> Result<Layout> {
    let s = match k {
        8 => "((_4,_8,_4),(_2,_2)):((_64,_1,_16),(_8,_256))",
        16 => "((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))",
        32 => "((_4,_8,_4),(_4,_2,_2)):((_256,_1,_16),(_64,_8,_1024))",
        64 => "((_4,_8,_4),(_8,_2,_2)):((_512,_1,_16),(_64,_8,_2048))",
        _ => {
            return Err(LayoutError::invalid(format!(
                "GMMA A from registers has K = 8, 16, 32 or 64, got {k}"
            )));
        }
    };
    super::layout_of(s)
}

/// The shared-memory operand layout `(128,(MN,K)):(0,(1,MN))`: every thread sees the whole tile.
///
/// ```
/// use cute_layout_core::atom::gmma::gmma_smem_operand_layout;
/// assert_eq!(gmma_smem_operand_layout(64, 16).unwrap().to_string(), "(_128,(_64,_16)):(_0,(_1,_64))");
/// ```
pub fn gmma_smem_operand_layout(mn: i64, k: i64) -> Result<Layout> {
    super::layout_of(&format!("(_128,(_{mn},_{k})):(_0,(_1,_{mn}))"))
}

fn check_n(n: i64) -> Result<()> {
    if n % 8 == 0 && (8..=256).contains(&n) {
        Ok(())
    } else {
        Err(LayoutError::invalid(format!(
            "GMMA N must be a multiple of 8 from 8 to 256, got {n}"
        )))
    }
}

/// Parse `SM90_64x{N}x{K}_{types}_{SS|RS}[_TN][<...>]` (already normalized) into traits.
pub(super) fn gmma_traits(name: &str, key: &str) -> Result<MmaTraits> {
    let bad =
        |why: &str| LayoutError::invalid(format!("`{name}` is not a GMMA operation name: {why}"));
    let (base, targs) = match key.find('<') {
        Some(i) => {
            let t = &key[i..];
            if !t.ends_with('>') {
                return Err(bad("the template argument list does not end with `>`"));
            }
            (&key[..i], Some(&t[1..t.len() - 1]))
        }
        None => (key, None),
    };
    // `SM90_64x...` are CuTe's aliases of `SM90::GMMA::MMA_64x...`; sparse ones have no alias.
    let (sparse, rest) = if let Some(r) = base
        .strip_prefix("SM90_64x")
        .or_else(|| base.strip_prefix("SM90::GMMA::MMA_64x"))
    {
        (false, r)
    } else if let Some(r) = base.strip_prefix("SM90::GMMA::SPARSE::GMMA_64x") {
        (true, r)
    } else {
        return Err(bad(
            "expected the prefix SM90_64x, SM90::GMMA::MMA_64x or SM90::GMMA::SPARSE::GMMA_64x",
        ));
    };
    let dense_k = if sparse { 512 } else { 256 };
    let mut parts = rest.split('_');
    let nk = parts.next().unwrap_or_default();
    let (n, k) = nk.split_once('x').ok_or_else(|| bad("expected 64xNxK"))?;
    let n: i64 = n.parse().map_err(|_| bad("N is not a number"))?;
    let k: i64 = k.parse().map_err(|_| bad("K is not a number"))?;
    let types = parts.next().ok_or_else(|| bad("missing the value types"))?;
    let source = parts.next().ok_or_else(|| bad("missing _SS or _RS"))?;
    let tn = match parts.next() {
        None => false,
        Some("TN") => true,
        Some(other) => return Err(bad(&format!("unexpected suffix `_{other}`"))),
    };
    let _saturate = match parts.next() {
        None => false,
        Some("SATURATE") if types.starts_with("S32") => true,
        Some(_) => return Err(bad("unexpected text after the operand sources")),
    };
    if parts.next().is_some() {
        return Err(bad("unexpected text after _SATURATE"));
    }
    let &(_, bits, tn_only) = TYPE_COMBOS
        .iter()
        .find(|(t, _, _)| *t == types)
        .ok_or_else(|| {
            unknown_op(
                "GMMA",
                name,
                types,
                &TYPE_COMBOS.iter().map(|t| t.0).collect::<Vec<_>>(),
            )
        })?;
    if tn != tn_only {
        return Err(bad(if tn_only {
            "these value types exist only as _TN operations"
        } else {
            "unexpected _TN"
        }));
    }
    if k * bits as i64 != dense_k {
        return Err(bad(&format!(
            "K = {k} does not match {bits}-bit operands (K * bits must be {dense_k})"
        )));
    }
    check_n(n)?;
    let integer = types.starts_with("S32");
    if integer && n > 32 && n % 16 != 0 {
        return Err(bad(&format!(
            "integer GMMAs above N = 32 have N a multiple of 16, got {n}"
        )));
    }
    if integer && !sparse && targs.is_some() {
        return Err(bad("dense integer GMMAs take no template arguments"));
    }
    check_template_args(targs, tn_only, sparse).map_err(|why| bad(&why))?;
    if integer && targs.is_some_and(|t| t.contains("ScaleIn")) {
        return Err(bad("integer GMMAs take no GMMA::ScaleIn arguments"));
    }
    let a = match source {
        "SS" => gmma_smem_operand_layout(64, k)?,
        "RS" => gmma_a_register_layout_k(k)?,
        _ => return Err(bad("operand sources must be SS or RS")),
    };
    Ok(MmaTraits {
        op: name.to_string(),
        shape_mnk: IntTuple::tuple(vec![IntTuple::s(64), IntTuple::s(n), IntTuple::s(k)]),
        thr_id: super::layout_of("_128:_1")?,
        layout_a: a,
        layout_b: gmma_smem_operand_layout(n, k)?,
        layout_c: gmma_c_layout(n)?,
    })
}

/// Non-TN GMMAs take `<GMMA::Major::{K|MN},GMMA::Major::{K|MN}[,scale args]>`; TN ones take no majors;
/// sparse ones may end with `GMMA::SparseSel::{Zero|One}`.
fn check_template_args(
    targs: Option<&str>,
    tn_only: bool,
    sparse: bool,
) -> std::result::Result<(), String> {
    let args: Vec<&str> = targs
        .map(|t| t.split(',').filter(|s| !s.is_empty()).collect())
        .unwrap_or_default();
    if !tn_only {
        if args.len() < 2 {
            return Err("expected <GMMA::Major::K|MN, GMMA::Major::K|MN>".into());
        }
        for a in &args[..2] {
            if parse_major(a).is_none() {
                return Err(format!("`{a}` is not GMMA::Major::K or GMMA::Major::MN"));
            }
        }
    }
    let mut scales = if tn_only { &args[..] } else { &args[2..] };
    if sparse
        && let Some((last, init)) = scales.split_last()
        && matches!(*last, "GMMA::SparseSel::Zero" | "GMMA::SparseSel::One")
    {
        scales = init;
    }
    if let Some(s) = scales
        .iter()
        .find(|s| !matches!(**s, "GMMA::ScaleIn::One" | "GMMA::ScaleIn::Neg"))
    {
        return Err(format!(
            "unexpected template argument `{s}` (expected GMMA::ScaleIn::One or GMMA::ScaleIn::Neg)"
        ));
    }
    if scales.len() > 2 {
        return Err(format!(
            "at most two GMMA::ScaleIn arguments, got {}",
            scales.len()
        ));
    }
    Ok(())
}

/// Which mode of an operand is contiguous in shared memory.
///
/// ```
/// use cute_layout_core::atom::gmma::{Major, SmemSwizzle, smem_atom_bits};
/// let k = smem_atom_bits(Major::K, SmemSwizzle::Sw32).unwrap();
/// assert_eq!(k.to_string(), "Sw<1,4,3> o _0 o (_8,_256):(_256,_1)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Major {
    /// K is contiguous (CuTe's `GMMA::Major::K`, BLAS "T" for A).
    K,
    /// M (for A) or N (for B) is contiguous (`GMMA::Major::MN`).
    MN,
}

fn parse_major(s: &str) -> Option<Major> {
    match s.strip_prefix("GMMA::Major::")? {
        "K" => Some(Major::K),
        "MN" => Some(Major::MN),
        _ => None,
    }
}

/// The swizzle mode of a canonical GMMA shared-memory layout (`GMMA::LayoutType`).
///
/// ```
/// use cute_layout_core::atom::gmma::SmemSwizzle;
/// assert_eq!(SmemSwizzle::Sw128.swizzle_bits(), 3); // Swizzle<3,4,3>
/// assert_eq!(SmemSwizzle::Sw128.row_bits(), 1024); // 128-byte rows
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SmemSwizzle {
    /// Interleaved, no swizzle (`Swizzle<0,4,3>`, 16-byte rows).
    Inter,
    /// 32-byte swizzle (`Swizzle<1,4,3>`).
    Sw32,
    /// 64-byte swizzle (`Swizzle<2,4,3>`).
    Sw64,
    /// 128-byte swizzle (`Swizzle<3,4,3>`).
    Sw128,
}

impl SmemSwizzle {
    /// The `B` of `Swizzle<B,4,3>`: 0, 1, 2, 3.
    ///
    /// ```
    /// use cute_layout_core::atom::gmma::SmemSwizzle;
    /// assert_eq!(SmemSwizzle::Inter.swizzle_bits(), 0);
    /// assert_eq!(SmemSwizzle::Sw64.swizzle_bits(), 2);
    /// ```
    pub fn swizzle_bits(self) -> i64 {
        match self {
            SmemSwizzle::Inter => 0,
            SmemSwizzle::Sw32 => 1,
            SmemSwizzle::Sw64 => 2,
            SmemSwizzle::Sw128 => 3,
        }
    }
    /// The width of the swizzled row in bits: 128, 256, 512, 1024.
    ///
    /// ```
    /// use cute_layout_core::atom::gmma::SmemSwizzle;
    /// assert_eq!(SmemSwizzle::Sw64.row_bits(), 512);
    /// ```
    pub fn row_bits(self) -> i64 {
        128 << self.swizzle_bits()
    }
}

/// CuTe's `GMMA::Layout_{MN|K}_{INTER|SW32|SW64|SW128}_Atom_Bits`: the canonical atom in units of bits,
/// `Sw<B,4,3> o 0 o (8,W):(W,1)` for K-major and `Sw<B,4,3> o 0 o (W,8):(1,W)` for MN-major, `W` the row
/// width in bits. As in CuTe, the swizzle acts on byte addresses (`M = 4`: 16-byte chunks).
///
/// ```
/// use cute_layout_core::atom::gmma::{smem_atom_bits, Major, SmemSwizzle};
/// assert_eq!(smem_atom_bits(Major::K, SmemSwizzle::Sw128).unwrap().to_string(), "Sw<3,4,3> o _0 o (_8,_1024):(_1024,_1)");
/// assert_eq!(smem_atom_bits(Major::MN, SmemSwizzle::Inter).unwrap().to_string(), "Sw<0,4,3> o _0 o (_128,_8):(_1,_128)");
/// ```
pub fn smem_atom_bits(major: Major, sw: SmemSwizzle) -> Result<ComposedLayout> {
    let w = sw.row_bits();
    let layout = match major {
        Major::K => format!("(_8,_{w}):(_{w},_1)"),
        Major::MN => format!("(_{w},_8):(_1,_{w})"),
    };
    Ok(ComposedLayout::swizzled(
        Swizzle::new(sw.swizzle_bits(), 4, 3)?,
        super::layout_of(&layout)?,
    ))
}

/// CuTe's `GMMA::Layout_{MN|K}_{...}_Atom<T>` for a `bits`-wide value type, in units of elements:
/// the bit atom upcast by `bits` (`(8,W/bits):(W/bits,1)` K-major, `(W/bits,8):(1,W/bits)` MN-major), with the
/// byte swizzle `Sw<B,4,3>` rewritten for element offsets as `Sw<B,7-log2(bits),3>` so the composed layout is
/// the element-offset function (`Sw<3,3,3>` for 16-bit values with a 128-byte swizzle).
///
/// ```
/// use cute_layout_core::atom::gmma::{smem_atom, Major, SmemSwizzle};
/// assert_eq!(smem_atom(Major::K, SmemSwizzle::Sw128, 16).unwrap().to_string(), "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
/// assert_eq!(smem_atom(Major::MN, SmemSwizzle::Sw64, 8).unwrap().to_string(), "Sw<2,4,3> o _0 o (_64,_8):(_1,_64)");
/// assert!(smem_atom(Major::K, SmemSwizzle::Sw32, 12).is_err());
/// ```
pub fn smem_atom(major: Major, sw: SmemSwizzle, bits: i64) -> Result<ComposedLayout> {
    if !(bits > 0 && bits <= 64 && bits & (bits - 1) == 0) {
        return Err(LayoutError::invalid(format!(
            "GMMA shared-memory atoms need a power-of-two value width from 1 to 64 bits, got {bits}"
        )));
    }
    let w = sw.row_bits() / bits;
    let layout = match major {
        Major::K => format!("(_8,_{w}):(_{w},_1)"),
        Major::MN => format!("(_{w},_8):(_1,_{w})"),
    };
    let log2 = bits.trailing_zeros() as i64;
    Ok(ComposedLayout::swizzled(
        Swizzle::new(sw.swizzle_bits(), 7 - log2, 3)?,
        super::layout_of(&layout)?,
    ))
}

/// Parse `GMMA::Layout_{K|MN}_{INTER|SW32|SW64|SW128}_Atom<T>` (`T` a value type such as `half_t`,
/// `uint8_t`, `float`, or `uint_bit_t<N>`) into [`smem_atom`]'s arguments.
///
/// ```
/// use cute_layout_core::atom::gmma::{smem_atom_by_name};
/// let l = smem_atom_by_name("GMMA::Layout_MN_SW128_Atom<half_t>").unwrap();
/// assert_eq!(l.to_string(), "Sw<3,3,3> o _0 o (_64,_8):(_1,_64)");
/// ```
pub fn smem_atom_by_name(name: &str) -> Result<ComposedLayout> {
    let key = super::mma_traits::normalize(name);
    let bad = || {
        LayoutError::invalid(format!(
            "`{name}` is not a GMMA layout atom: expected GMMA::Layout_{{K|MN}}_{{INTER|SW32|SW64|SW128}}_Atom<T>"
        ))
    };
    let rest = key
        .strip_prefix("GMMA::")
        .unwrap_or(&key)
        .strip_prefix("Layout_")
        .ok_or_else(bad)?;
    let (major, rest) = if let Some(r) = rest.strip_prefix("MN_") {
        (Major::MN, r)
    } else if let Some(r) = rest.strip_prefix("K_") {
        (Major::K, r)
    } else {
        return Err(bad());
    };
    let (kind, ty) = rest.split_once("_Atom<").ok_or_else(bad)?;
    let ty = ty.strip_suffix('>').ok_or_else(bad)?;
    let sw = match kind {
        "INTER" => SmemSwizzle::Inter,
        "SW32" => SmemSwizzle::Sw32,
        "SW64" => SmemSwizzle::Sw64,
        "SW128" => SmemSwizzle::Sw128,
        _ => return Err(bad()),
    };
    let bits = super::type_bits(ty)?;
    smem_atom(major, sw, bits)
}
