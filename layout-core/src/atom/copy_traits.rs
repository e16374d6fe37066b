//! Copy traits: which thread moves which bits in one copy instruction (CuTe's `Copy_Traits<Op>`).
//!
//! All three layouts map `(thread, value)` to a **bit** index of the data the instruction moves:
//! `SrcLayout` in the source's thread-value order, `DstLayout` in the destination's, and `RefLayout`
//! (one of the two) is the order a TiledCopy is built in. `ThrID` maps logical thread ids to thread indices.
//!
//! ```
//! use cute_layout_core::atom::CopyTraits;
//! let t = CopyTraits::from_name("SM75_U32x1_LDSM_N").unwrap();
//! assert_eq!(t.thr_id.to_string(), "_32:_1");
//! assert_eq!(t.src.to_string(), "((_8,_4),_128):((_128,_0),_1)");
//! assert_eq!(t.dst.to_string(), "(_32,_32):(_32,_1)");
//! assert_eq!(t.reference, t.dst);
//! let u = CopyTraits::from_name("UniversalCopy<uint128_t>").unwrap();
//! assert_eq!(u.src.to_string(), "(_1,_128):(_0,_1)");
//! ```

use super::mma_traits::{normalize, unknown_op};
use super::{layout_of, type_bits};
use crate::error::Result;
use crate::layout::Layout;

/// The bit layouts of one copy operation.
///
/// ```
/// use cute_layout_core::atom::CopyTraits;
/// let t = CopyTraits::from_name("SM80_CP_ASYNC_CACHEALWAYS<uint64_t>").unwrap();
/// assert_eq!(t.thr_id.to_string(), "_1:_0");
/// assert_eq!(t.src.to_string(), "(_1,_64):(_0,_1)"); // one thread moves 64 bits
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopyTraits {
    /// The operation's C++ type name, as given.
    pub op: String,
    /// Logical thread id -> thread index.
    pub thr_id: Layout,
    /// `(src thr, src val)` -> bit.
    pub src: Layout,
    /// `(dst thr, dst val)` -> bit.
    pub dst: Layout,
    /// `(ref thr, ref val)` -> bit: the order TiledCopy layouts are written in.
    pub reference: Layout,
}

/// Which of source and destination is the reference order.
#[derive(Clone, Copy)]
enum Ref {
    Src,
    Dst,
}

/// A warp-wide matrix instruction: names, source, destination and which one is the reference.
struct Row {
    name: &'static str,
    src: &'static str,
    dst: &'static str,
    reference: Ref,
}

// ldmatrix source layouts (addresses supplied by 8, 16 or 32 threads) and destination layouts.
const LDSM_SRC_X1: &str = "((_8,_4),_128):((_128,_0),_1)";
const LDSM_SRC_X2: &str = "((_16,_2),_128):((_128,_0),_1)";
const LDSM_SRC_X4: &str = "(_32,_128):(_128,_1)";
const LDSM_N_DST_X1: &str = "(_32,_32):(_32,_1)";
const LDSM_N_DST_X2: &str = "(_32,(_32,_2)):(_32,(_1,_1024))";
const LDSM_N_DST_X4: &str = "(_32,(_32,_4)):(_32,(_1,_1024))";
const LDSM_T_DST_X2: &str = "((_4,_8),(_16,_2)):((_256,_16),(_1,_128))";
const LDSM_T_DST_X4: &str = "((_4,_8),(_16,_2,_2)):((_256,_16),(_1,_128,_1024))";
const LDSM_T_DST_X8: &str = "((_4,_8),(_16,_2,_4)):((_256,_16),(_1,_128,_1024))";

const WARP_OPS: &[Row] = &[
    // SM75 ldmatrix: shared memory -> registers; the register side is the reference.
    Row {
        name: "SM75_U32x1_LDSM_N",
        src: LDSM_SRC_X1,
        dst: LDSM_N_DST_X1,
        reference: Ref::Dst,
    },
    Row {
        name: "SM75_U32x2_LDSM_N",
        src: LDSM_SRC_X2,
        dst: LDSM_N_DST_X2,
        reference: Ref::Dst,
    },
    Row {
        name: "SM75_U32x4_LDSM_N",
        src: LDSM_SRC_X4,
        dst: LDSM_N_DST_X4,
        reference: Ref::Dst,
    },
    Row {
        name: "SM75_U16x2_LDSM_T",
        src: LDSM_SRC_X1,
        dst: LDSM_T_DST_X2,
        reference: Ref::Dst,
    },
    Row {
        name: "SM75_U16x4_LDSM_T",
        src: LDSM_SRC_X2,
        dst: LDSM_T_DST_X4,
        reference: Ref::Dst,
    },
    Row {
        name: "SM75_U16x8_LDSM_T",
        src: LDSM_SRC_X4,
        dst: LDSM_T_DST_X8,
        reference: Ref::Dst,
    },
    // SM75 movmatrix: register transpose.
    Row {
        name: "SM75_U32x1_MOVM_T",
        src: LDSM_N_DST_X1,
        dst: LDSM_N_DST_X1,
        reference: Ref::Dst,
    },
    // SM90 stmatrix: the mirror of ldmatrix; registers (the source) are the reference.
    Row {
        name: "SM90_U32x1_STSM_N",
        src: LDSM_N_DST_X1,
        dst: LDSM_SRC_X1,
        reference: Ref::Src,
    },
    Row {
        name: "SM90_U32x2_STSM_N",
        src: LDSM_N_DST_X2,
        dst: LDSM_SRC_X2,
        reference: Ref::Src,
    },
    Row {
        name: "SM90_U32x4_STSM_N",
        src: LDSM_N_DST_X4,
        dst: LDSM_SRC_X4,
        reference: Ref::Src,
    },
    Row {
        name: "SM90_U16x2_STSM_T",
        src: LDSM_T_DST_X2,
        dst: LDSM_SRC_X1,
        reference: Ref::Src,
    },
    Row {
        name: "SM90_U16x4_STSM_T",
        src: LDSM_T_DST_X4,
        dst: LDSM_SRC_X2,
        reference: Ref::Src,
    },
    Row {
        name: "SM90_U16x8_STSM_T",
        src: LDSM_T_DST_X8,
        dst: LDSM_SRC_X4,
        reference: Ref::Src,
    },
];

/// Single-thread copies parameterized by the source (and optional destination) value type.
const TYPED_OPS: &[&str] = &[
    "UniversalCopy",
    "SM80_CP_ASYNC_CACHEALWAYS",
    "SM80_CP_ASYNC_CACHEGLOBAL",
    "SM80_CP_ASYNC_CACHEALWAYS_ZFILL",
    "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL",
];

/// The four kinds of SM90 TMA copies (`SM90_TMA_LOAD`, ...), whose traits depend on the bits per TMA.
///
/// ```
/// use cute_layout_core::atom::{CopyTraits, TmaKind};
/// let t = CopyTraits::tma(TmaKind::Load, 1024).unwrap();
/// assert_eq!(t.src.to_string(), "(_1,_1024):(_0,_1)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TmaKind {
    /// `SM90_TMA_LOAD`: global -> shared.
    Load,
    /// `SM90_TMA_LOAD_MULTICAST`: global -> shared of several CTAs.
    LoadMulticast,
    /// `SM90_TMA_STORE`: shared -> global.
    Store,
    /// `SM90_TMA_REDUCE_ADD`: shared -> global with addition.
    ReduceAdd,
}

impl CopyTraits {
    /// The traits of the copy operation with this CuTe C++ type name.
    ///
    /// Known: `UniversalCopy<S[,D]>`, `SM80_CP_ASYNC_CACHE{ALWAYS,GLOBAL}[_ZFILL]<S[,D]>`,
    /// `AutoVectorizingCopyWithAssumedAlignment<N>` and its aliases `AutoVectorizingCopy` and `DefaultCopy`,
    /// SM75 `ldmatrix` (`SM75_U32x{1,2,4}_LDSM_N`, `SM75_U16x{2,4,8}_LDSM_T`), `SM75_U32x1_MOVM_T`, and
    /// SM90 `stmatrix` (`SM90_U32x{1,2,4}_STSM_N`, `SM90_U16x{2,4,8}_STSM_T`). Value types: `[u]int{8,16,32,64}_t`,
    /// `uint128_t`, `half_t`, `bfloat16_t`, `tfloat32_t`, `float`, `double`, `uint_bit_t<N>`, ...
    ///
    /// ```
    /// use cute_layout_core::atom::CopyTraits;
    /// let t = CopyTraits::from_name("SM90_U32x4_STSM_N").unwrap();
    /// assert_eq!(t.src.to_string(), "(_32,(_32,_4)):(_32,(_1,_1024))");
    /// assert_eq!(CopyTraits::from_name("DefaultCopy").unwrap().src.to_string(), "(_1,_1):(_0,_0)");
    /// assert!(CopyTraits::from_name("UniversalCopy<uint24_t>").is_err());
    /// ```
    pub fn from_name(name: &str) -> Result<CopyTraits> {
        let key = normalize(name);
        if let Some(row) = WARP_OPS.iter().find(|r| r.name == key) {
            let (src, dst) = (layout_of(row.src)?, layout_of(row.dst)?);
            let reference = match row.reference {
                Ref::Src => src.clone(),
                Ref::Dst => dst.clone(),
            };
            return Ok(CopyTraits {
                op: name.to_string(),
                thr_id: layout_of("_32:_1")?,
                src,
                dst,
                reference,
            });
        }
        if key == "AutoVectorizingCopy"
            || key == "DefaultCopy"
            || auto_vectorizing_alignment(&key).is_some()
        {
            let none = layout_of("(_1,_1):(_0,_0)")?;
            return Ok(CopyTraits {
                op: name.to_string(),
                thr_id: layout_of("_1:_0")?,
                src: none.clone(),
                dst: none.clone(),
                reference: none,
            });
        }
        if let Some((op, args)) = key.split_once('<')
            && TYPED_OPS.contains(&op)
        {
            let args = args.strip_suffix('>').ok_or_else(|| {
                crate::LayoutError::invalid(format!(
                    "`{name}`: the template argument list does not end with `>`"
                ))
            })?;
            let types: Vec<&str> = split_top_level(args);
            if types.is_empty() || types.len() > 2 {
                return Err(crate::LayoutError::invalid(format!(
                    "`{name}`: {op} takes one or two value types (source, destination)"
                )));
            }
            let s = type_bits(types[0])?;
            let d = match types.get(1) {
                Some(t) => type_bits(t)?,
                None => s,
            };
            return Self::single_thread(name, s, d);
        }
        let known: Vec<&str> = WARP_OPS
            .iter()
            .map(|r| r.name)
            .chain([
                "AutoVectorizingCopy",
                "DefaultCopy",
                "UniversalCopy<uint128_t>",
            ])
            .collect();
        Err(unknown_op("copy", name, &key, &known))
    }

    /// One thread copying `src_bits` into `dst_bits`: `ThrID = _1:_0`, layouts `(_1,bits):(_0,_1)`.
    fn single_thread(name: &str, src_bits: i64, dst_bits: i64) -> Result<CopyTraits> {
        let src = layout_of(&format!("(_1,_{src_bits}):(_0,_1)"))?;
        let dst = layout_of(&format!("(_1,_{dst_bits}):(_0,_1)"))?;
        Ok(CopyTraits {
            op: name.to_string(),
            thr_id: layout_of("_1:_0")?,
            reference: src.clone(),
            src,
            dst,
        })
    }

    /// The traits of an SM90 TMA copy moving `bits_per_tma` bits per instruction, as CuTe's
    /// `Copy_Traits<SM90_TMA_LOAD, NumBitsPerTMA, ...>` has them: one thread, `(_1,bits):(_0,_1)` for all three.
    /// (The rest of a TMA copy, its tensor map, is built from the tensor it copies, not from the atom.)
    ///
    /// ```
    /// use cute_layout_core::atom::{CopyTraits, TmaKind};
    /// let t = CopyTraits::tma(TmaKind::Load, 4096).unwrap();
    /// assert_eq!(t.op, "SM90_TMA_LOAD");
    /// assert_eq!(t.src.to_string(), "(_1,_4096):(_0,_1)");
    /// ```
    pub fn tma(kind: TmaKind, bits_per_tma: i64) -> Result<CopyTraits> {
        if bits_per_tma <= 0 {
            return Err(crate::LayoutError::invalid(format!(
                "a TMA copy moves a positive number of bits, got {bits_per_tma}"
            )));
        }
        let name = match kind {
            TmaKind::Load => "SM90_TMA_LOAD",
            TmaKind::LoadMulticast => "SM90_TMA_LOAD_MULTICAST",
            TmaKind::Store => "SM90_TMA_STORE",
            TmaKind::ReduceAdd => "SM90_TMA_REDUCE_ADD",
        };
        Self::single_thread(name, bits_per_tma, bits_per_tma)
    }

    /// Number of threads of one atom (`size(ThrID)`).
    ///
    /// ```
    /// use cute_layout_core::atom::CopyTraits;
    /// assert_eq!(CopyTraits::from_name("SM75_U32x4_LDSM_N").unwrap().num_threads(), 32);
    /// assert_eq!(CopyTraits::from_name("UniversalCopy<uint128_t>").unwrap().num_threads(), 1);
    /// ```
    pub fn num_threads(&self) -> i64 {
        super::mma_traits::shape_product(self.thr_id.shape())
    }
}

/// `AutoVectorizingCopyWithAssumedAlignment<N>` -> `N`.
fn auto_vectorizing_alignment(key: &str) -> Option<i64> {
    key.strip_prefix("AutoVectorizingCopyWithAssumedAlignment<")?
        .strip_suffix('>')?
        .parse()
        .ok()
}

/// Split at commas outside `<>` and `()`.
fn split_top_level(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, c) in s.char_indices() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if !s[start..].is_empty() {
        out.push(&s[start..]);
    }
    out
}
