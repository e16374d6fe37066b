//! MMA traits: what one tensor-core (or FMA) instruction computes and which thread holds which element.
//!
//! For an operation `D = A * B + C` of shape `M x N x K` (CuTe's `MMA_Traits<Op>`):
//!
//! * `Shape_MNK` is `(M,N,K)`;
//! * `ThrID` maps the atom's logical thread id to the thread index inside the warp (or warpgroup);
//! * `ALayout` maps `(thread, value)` to the column-major offset `m + M*k` in the `M x K` tile of A,
//!   `BLayout` maps to `n + N*k` in `N x K`, `CLayout` maps to `m + M*n` in `M x N`.
//!
//! Every layout here is written in CuTe notation exactly as CuTe's headers define it (all leaves static).
//!
//! The seed example, SM70's `8x8x4` with A in column-major ("N") order: thread layout `(4,2):(8,4)`,
//! value layout `4:1`, together `((4,2),4):((8,4),1)`:
//!
//! ```
//! use cute_layout_core::atom::MmaTraits;
//! let t = MmaTraits::from_name("SM70_8x8x4_F32F16F16F32_NT").unwrap();
//! assert_eq!(t.shape_mnk.to_string(), "(_8,_8,_4)");
//! assert_eq!(t.thr_id.to_string(), "(_4,_2):(_1,_16)");
//! let a = t.layout_a;
//! assert_eq!(a.to_string(), "((_4,_2),_4):((_8,_4),_1)");
//! // the thread part and the value part of the TV layout
//! assert_eq!(a.mode(0).unwrap().to_string(), "(_4,_2):(_8,_4)");
//! assert_eq!(a.mode(1).unwrap().to_string(), "_4:_1");
//! ```

use super::{layout_of, nearest_name};
use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;

/// The thread-value layouts of one MMA operation (CuTe's `MMA_Traits<Op>`).
///
/// ```
/// use cute_layout_core::atom::MmaTraits;
/// let t = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
/// assert_eq!(t.shape_mnk.to_string(), "(_16,_8,_16)");
/// assert_eq!(t.thr_id.to_string(), "_32:_1");
/// assert_eq!(t.layout_a.to_string(), "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))");
/// assert_eq!(t.layout_c.to_string(), "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MmaTraits {
    /// The operation's C++ type name, as given (e.g. `SM80_16x8x16_F32F16F16F32_TN`).
    pub op: String,
    /// `(M,N,K)`, static.
    pub shape_mnk: IntTuple,
    /// Logical thread id -> thread index.
    pub thr_id: Layout,
    /// `(thr,val)` -> column-major offset in the `M x K` tile of A.
    pub layout_a: Layout,
    /// `(thr,val)` -> column-major offset in the `N x K` tile of B.
    pub layout_b: Layout,
    /// `(thr,val)` -> column-major offset in the `M x N` tile of C.
    pub layout_c: Layout,
}

/// One row of the table of fixed-shape operations: names sharing the layouts, then shape, ThrID, A, B, C.
struct Row {
    names: &'static [&'static str],
    shape: &'static str,
    thr: &'static str,
    a: &'static str,
    b: &'static str,
    c: &'static str,
}

// Layouts CuTe shares between several operations (names as in CuTe's headers).
const WARP: &str = "_32:_1";
const ONE: &str = "_1:_0";
const SM70_QUAD_PAIR: &str = "(_4,_2):(_1,_16)";
const SM70_8X4_ROW: &str = "(_8,_4):(_1,_8)";
const SM70_8X4_COL: &str = "((_4,_2),_4):((_8,_4),_1)";
const SM70_8X8_16B: &str = "(_8,_8):(_1,_8)";
const SM70_8X8_32B: &str = "((_2,_2,_2),(_2,_2,_2)):((_1,_16,_4),(_8,_2,_32))";
const SM80_8X4: &str = "((_4,_8),_1):((_8,_1),_0)";
const SM80_8X8_ROW: &str = "((_4,_8),_2):((_16,_1),_8)";
const SM80_8X16_ROW: &str = "((_4,_8),_4):((_32,_1),_8)";
const SM80_16X8_ROW: &str = "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))";

const fn sm70(
    names: &'static [&'static str],
    a: &'static str,
    b: &'static str,
    c: &'static str,
) -> Row {
    Row {
        names,
        shape: "(_8,_8,_4)",
        thr: SM70_QUAD_PAIR,
        a,
        b,
        c,
    }
}

const fn warp(
    names: &'static [&'static str],
    shape: &'static str,
    a: &'static str,
    b: &'static str,
    c: &'static str,
) -> Row {
    Row {
        names,
        shape,
        thr: WARP,
        a,
        b,
        c,
    }
}

const FIXED: &[Row] = &[
    // SM70 (Volta) quad-pair HMMA: TN = A and B K-major ("row"), N = M|N-major ("col").
    sm70(
        &["SM70_8x8x4_F16F16F16F16_TN"],
        SM70_8X4_ROW,
        SM70_8X4_ROW,
        SM70_8X8_16B,
    ),
    sm70(
        &["SM70_8x8x4_F16F16F16F16_NT"],
        SM70_8X4_COL,
        SM70_8X4_COL,
        SM70_8X8_16B,
    ),
    sm70(
        &["SM70_8x8x4_F16F16F16F16_NN"],
        SM70_8X4_COL,
        SM70_8X4_ROW,
        SM70_8X8_16B,
    ),
    sm70(
        &["SM70_8x8x4_F16F16F16F16_TT"],
        SM70_8X4_ROW,
        SM70_8X4_COL,
        SM70_8X8_16B,
    ),
    sm70(
        &["SM70_8x8x4_F32F16F16F32_TN"],
        SM70_8X4_ROW,
        SM70_8X4_ROW,
        SM70_8X8_32B,
    ),
    sm70(
        &["SM70_8x8x4_F32F16F16F32_NT"],
        SM70_8X4_COL,
        SM70_8X4_COL,
        SM70_8X8_32B,
    ),
    sm70(
        &["SM70_8x8x4_F32F16F16F32_NN"],
        SM70_8X4_COL,
        SM70_8X4_ROW,
        SM70_8X8_32B,
    ),
    sm70(
        &["SM70_8x8x4_F32F16F16F32_TT"],
        SM70_8X4_ROW,
        SM70_8X4_COL,
        SM70_8X8_32B,
    ),
    // SM75 (Turing)
    warp(
        &["SM75_16x8x8_F32F16F16F32_TN", "SM75_16x8x8_F16F16F16F16_TN"],
        "(_16,_8,_8)",
        SM80_16X8_ROW,
        SM80_8X8_ROW,
        SM80_16X8_ROW,
    ),
    warp(
        &["SM75_8x8x16_S32S8S8S32_TN"],
        "(_8,_8,_16)",
        SM80_8X16_ROW,
        SM80_8X16_ROW,
        SM80_8X8_ROW,
    ),
    // SM80 (Ampere): f16 / bf16
    warp(
        &[
            "SM80_16x8x8_F16F16F16F16_TN",
            "SM80_16x8x8_F32F16F16F32_TN",
            "SM80_16x8x8_F32BF16BF16F32_TN",
        ],
        "(_16,_8,_8)",
        SM80_16X8_ROW,
        SM80_8X8_ROW,
        SM80_16X8_ROW,
    ),
    warp(
        &[
            "SM80_16x8x16_F16F16F16F16_TN",
            "SM80_16x8x16_F32F16F16F32_TN",
            "SM80_16x8x16_F32BF16BF16F32_TN",
        ],
        "(_16,_8,_16)",
        "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))",
        "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))",
        SM80_16X8_ROW,
    ),
    // SM80: tf32
    warp(
        &["SM80_16x8x4_F32TF32TF32F32_TN"],
        "(_16,_8,_4)",
        "((_4,_8),_2):((_16,_1),_8)",
        SM80_8X4,
        SM80_16X8_ROW,
    ),
    warp(
        &["SM80_16x8x8_F32TF32TF32F32_TN"],
        "(_16,_8,_8)",
        "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))",
        "((_4,_8),_2):((_8,_1),_32)",
        SM80_16X8_ROW,
    ),
    // SM80: f64 and complex f64
    warp(
        &[
            "SM80_8x8x4_F64F64F64F64_TN",
            "SM80_8x8x4_C64C64C64C64_TN",
            "SM80_8x8x4_GC64C64C64GC64_TN",
        ],
        "(_8,_8,_4)",
        SM80_8X4,
        SM80_8X4,
        SM80_8X8_ROW,
    ),
    // SM80: 8-bit integers
    warp(
        &[
            "SM80_8x8x16_S32S8S8S32_TN",
            "SM80_8x8x16_S32S8S8S32_TN_SATURATE",
            "SM80_8x8x16_S32S8U8S32_TN",
            "SM80_8x8x16_S32S8U8S32_TN_SATURATE",
            "SM80_8x8x16_S32U8S8S32_TN",
            "SM80_8x8x16_S32U8S8S32_TN_SATURATE",
            "SM80_8x8x16_S32U8U8S32_TN",
            "SM80_8x8x16_S32U8U8S32_TN_SATURATE",
        ],
        "(_8,_8,_16)",
        SM80_8X16_ROW,
        SM80_8X16_ROW,
        SM80_8X8_ROW,
    ),
    warp(
        &[
            "SM80_16x8x16_S32S8S8S32_TN",
            "SM80_16x8x16_S32S8S8S32_TN_SATURATE",
            "SM80_16x8x16_S32S8U8S32_TN",
            "SM80_16x8x16_S32S8U8S32_TN_SATURATE",
            "SM80_16x8x16_S32U8S8S32_TN",
            "SM80_16x8x16_S32U8S8S32_TN_SATURATE",
            "SM80_16x8x16_S32U8U8S32_TN",
            "SM80_16x8x16_S32U8U8S32_TN_SATURATE",
        ],
        "(_16,_8,_16)",
        "((_4,_8),(_4,_2)):((_64,_1),(_16,_8))",
        SM80_8X16_ROW,
        SM80_16X8_ROW,
    ),
    warp(
        &[
            "SM80_16x8x32_S32S8S8S32_TN",
            "SM80_16x8x32_S32S8S8S32_TN_SATURATE",
            "SM80_16x8x32_S32S8U8S32_TN",
            "SM80_16x8x32_S32S8U8S32_TN_SATURATE",
            "SM80_16x8x32_S32U8S8S32_TN",
            "SM80_16x8x32_S32U8S8S32_TN_SATURATE",
            "SM80_16x8x32_S32U8U8S32_TN",
            "SM80_16x8x32_S32U8U8S32_TN_SATURATE",
        ],
        "(_16,_8,_32)",
        "((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))",
        "((_4,_8),(_4,_2)):((_32,_1),(_8,_128))",
        SM80_16X8_ROW,
    ),
    // SM80: 4-bit integers
    warp(
        &[
            "SM80_8x8x32_S32S4S4S32_TN",
            "SM80_8x8x32_S32S4S4S32_TN_SATURATE",
            "SM80_8x8x32_S32S4U4S32_TN",
            "SM80_8x8x32_S32S4U4S32_TN_SATURATE",
            "SM80_8x8x32_S32U4S4S32_TN",
            "SM80_8x8x32_S32U4S4S32_TN_SATURATE",
            "SM80_8x8x32_S32U4U4S32_TN",
            "SM80_8x8x32_S32U4U4S32_TN_SATURATE",
        ],
        "(_8,_8,_32)",
        "((_4,_8),(_8)):((_64,_1),(_8))",
        "((_4,_8),(_8)):((_64,_1),(_8))",
        SM80_8X8_ROW,
    ),
    warp(
        &[
            "SM80_16x8x32_S32S4S4S32_TN",
            "SM80_16x8x32_S32S4S4S32_TN_SATURATE",
            "SM80_16x8x32_S32S4U4S32_TN",
            "SM80_16x8x32_S32S4U4S32_TN_SATURATE",
            "SM80_16x8x32_S32U4S4S32_TN",
            "SM80_16x8x32_S32U4S4S32_TN_SATURATE",
            "SM80_16x8x32_S32U4U4S32_TN",
            "SM80_16x8x32_S32U4U4S32_TN_SATURATE",
        ],
        "(_16,_8,_32)",
        "((_4,_8),(_8,_2)):((_128,_1),(_16,_8))",
        "((_4,_8),(_8)):((_64,_1),(_8))",
        SM80_16X8_ROW,
    ),
    warp(
        &[
            "SM80_16x8x64_S32S4S4S32_TN",
            "SM80_16x8x64_S32S4S4S32_TN_SATURATE",
            "SM80_16x8x64_S32S4U4S32_TN",
            "SM80_16x8x64_S32S4U4S32_TN_SATURATE",
            "SM80_16x8x64_S32U4S4S32_TN",
            "SM80_16x8x64_S32U4S4S32_TN_SATURATE",
            "SM80_16x8x64_S32U4U4S32_TN",
            "SM80_16x8x64_S32U4U4S32_TN_SATURATE",
        ],
        "(_16,_8,_64)",
        "((_4,_8),(_8,_2,_2)):((_128,_1),(_16,_8,_512))",
        "((_4,_8),(_8,_2)):((_64,_1),(_8,_256))",
        SM80_16X8_ROW,
    ),
    // SM80: 1-bit
    warp(
        &[
            "SM80_16x8x256_S32U1U1S32_TN_XORPOPC",
            "SM80_16x8x256_S32U1U1S32_TN_ANDPOPC",
        ],
        "(_16,_8,_256)",
        "((_4,_8),(_32,_2,_2)):((_512,_1),(_16,_8,_2048))",
        "((_4,_8),(_32,_2)):((_256,_1),(_8,_1024))",
        SM80_16X8_ROW,
    ),
    // CuTe's ALayout stride is `((_512,_1),((_16,_8)))`, not congruent with its shape (a typo in
    // `mma_traits_sm80.hpp`); this is the congruent layout it means (README: deviations).
    warp(
        &[
            "SM80_16x8x128_S32U1U1S32_TN_XORPOPC",
            "SM80_16x8x128_S32U1U1S32_TN_ANDPOPC",
        ],
        "(_16,_8,_128)",
        "((_4,_8),(_32,_2)):((_512,_1),(_16,_8))",
        "((_4,_8),_32):((_256,_1),_8)",
        SM80_16X8_ROW,
    ),
    warp(
        &[
            "SM80_8x8x128_S32U1U1S32_TN_XORPOPC",
            "SM80_8x8x128_S32U1U1S32_TN_ANDPOPC",
        ],
        "(_8,_8,_128)",
        "((_4,_8),_32):((_256,_1),_8)",
        "((_4,_8),_32):((_256,_1),_8)",
        SM80_8X8_ROW,
    ),
    // SM89 (Ada): fp8
    warp(
        &[
            "SM89_16x8x32_F32E4M3E4M3F32_TN",
            "SM89_16x8x32_F32E4M3E5M2F32_TN",
            "SM89_16x8x32_F32E5M2E4M3F32_TN",
            "SM89_16x8x32_F32E5M2E5M2F32_TN",
            "SM89_16x8x32_F16E4M3E4M3F16_TN",
            "SM89_16x8x32_F16E4M3E5M2F16_TN",
            "SM89_16x8x32_F16E5M2E4M3F16_TN",
            "SM89_16x8x32_F16E5M2E5M2F16_TN",
        ],
        "(_16,_8,_32)",
        "((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))",
        "((_4,_8),(_4,_2)):((_32,_1),(_8,_128))",
        SM80_16X8_ROW,
    ),
    // SM90 (Hopper) warp-level f64 and complex f64
    warp(
        &["SM90_16x8x4_F64F64F64F64_TN", "SM90_16x8x4_C64C64C64C64_TN"],
        "(_16,_8,_4)",
        "((_4,_8),_2):((_16,_1),_8)",
        "((_4,_8),_1):((_8,_1),_0)",
        SM80_16X8_ROW,
    ),
    warp(
        &["SM90_16x8x8_F64F64F64F64_TN", "SM90_16x8x8_C64C64C64C64_TN"],
        "(_16,_8,_8)",
        "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))",
        "((_4,_8),_2):((_8,_1),_32)",
        SM80_16X8_ROW,
    ),
    warp(
        &[
            "SM90_16x8x16_F64F64F64F64_TN",
            "SM90_16x8x16_C64C64C64C64_TN",
        ],
        "(_16,_8,_16)",
        "((_4,_8),(_2,_4)):((_16,_1),(_8,_64))",
        "((_4,_8),_4):((_8,_1),_32)",
        SM80_16X8_ROW,
    ),
    // SM61 dot products: one thread
    Row {
        names: &["SM61_DP4A"],
        shape: "(_1,_1,_4)",
        thr: ONE,
        a: "(_1,_4):(_0,_1)",
        b: "(_1,_4):(_0,_1)",
        c: "(_1,_1):(_0,_0)",
    },
    Row {
        names: &["SM61_DP2A"],
        shape: "(_1,_1,_2)",
        thr: ONE,
        a: "(_1,_2):(_0,_1)",
        b: "(_1,_2):(_0,_1)",
        c: "(_1,_1):(_0,_0)",
    },
];

/// `UniversalFMA<D,A,B,C>`: one thread, one multiply-add.
const UNIVERSAL_FMA: Row = Row {
    names: &["UniversalFMA_F32"],
    shape: "(_1,_1,_1)",
    thr: ONE,
    a: "(_1,_1):(_0,_0)",
    b: "(_1,_1):(_0,_0)",
    c: "(_1,_1):(_0,_0)",
};

impl MmaTraits {
    /// The traits of the MMA operation with this CuTe C++ type name.
    ///
    /// Known: the SM61 dot products, SM70 `8x8x4` (all four majors, f16 and f32 accumulators), SM75, SM80
    /// (f16, bf16, tf32, f64, complex f64, s8/u8, s4/u4, b1 AND/XOR popc), SM89 fp8 (f32 and f16
    /// accumulators), SM90 warp-level f64 and complex f64, every SM90 GMMA `SM90_64xNxK_..._SS/RS`
    /// (also spelled `SM90::GMMA::MMA_64xNxK_...`, with scale and saturate variants) and every sparse
    /// GMMA `SM90::GMMA::SPARSE::GMMA_64xNxK_...` (see [`super::gmma`]), and `UniversalFMA<D,A,B,C>`
    /// (alias `UniversalFMA_F32`).
    /// Whitespace and a leading `cute::` are ignored.
    ///
    /// ```
    /// use cute_layout_core::atom::MmaTraits;
    /// let t = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// assert_eq!(t.layout_a.to_string(), "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))");
    /// let g = MmaTraits::from_name("SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::K,GMMA::Major::K>").unwrap();
    /// assert_eq!(g.layout_b.to_string(), "(_128,(_128,_16)):(_0,(_1,_128))");
    /// assert!(MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_NT").is_err());
    /// ```
    pub fn from_name(name: &str) -> Result<MmaTraits> {
        let key = normalize(name);
        if let Some(row) = FIXED.iter().find(|r| r.names.contains(&key.as_str())) {
            return row.build(name);
        }
        if key == "UniversalFMA_F32" || is_universal_fma(&key) {
            return UNIVERSAL_FMA.build(name);
        }
        if key.starts_with("SM90_64x") || key.starts_with("SM90::GMMA::") {
            return super::gmma::gmma_traits(name, &key);
        }
        Err(unknown_op("MMA", name, &key, &Self::known_names()))
    }

    /// Every fixed operation name this module knows (GMMA names are parsed, see [`super::gmma`]).
    ///
    /// ```
    /// use cute_layout_core::atom::MmaTraits;
    /// let names = MmaTraits::known_names();
    /// assert!(names.contains(&"SM80_16x8x16_F32F16F16F32_TN"));
    /// assert!(names.iter().all(|n| MmaTraits::from_name(n).is_ok()));
    /// ```
    pub fn known_names() -> Vec<&'static str> {
        FIXED
            .iter()
            .flat_map(|r| r.names.iter().copied())
            .chain(UNIVERSAL_FMA.names.iter().copied())
            .collect()
    }

    /// Build the traits from layouts written in CuTe notation.
    pub(crate) fn from_strs(
        op: &str,
        shape: &str,
        thr: &str,
        a: &str,
        b: &str,
        c: &str,
    ) -> Result<MmaTraits> {
        Ok(MmaTraits {
            op: op.to_string(),
            shape_mnk: shape.parse()?,
            thr_id: layout_of(thr)?,
            layout_a: layout_of(a)?,
            layout_b: layout_of(b)?,
            layout_c: layout_of(c)?,
        })
    }

    /// Number of threads of one atom (`size(ThrID)`).
    ///
    /// ```
    /// use cute_layout_core::atom::MmaTraits;
    /// assert_eq!(MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap().num_threads(), 32);
    /// assert_eq!(MmaTraits::from_name("SM70_8x8x4_F32F16F16F32_NT").unwrap().num_threads(), 8);
    /// ```
    pub fn num_threads(&self) -> i64 {
        shape_product(self.thr_id.shape())
    }

    /// `M`, `N` or `K` (mode 0, 1 or 2 of `Shape_MNK`).
    ///
    /// ```
    /// use cute_layout_core::atom::MmaTraits;
    /// let t = MmaTraits::from_name("SM80_16x8x16_F32F16F16F32_TN").unwrap();
    /// assert_eq!((t.extent(0).unwrap(), t.extent(1).unwrap(), t.extent(2).unwrap()), (16, 8, 16));
    /// assert!(t.extent(3).is_err());
    /// ```
    pub fn extent(&self, mode: usize) -> Result<i64> {
        Ok(shape_product(&self.shape_mnk.get(mode)?))
    }
}

impl Row {
    fn build(&self, op: &str) -> Result<MmaTraits> {
        MmaTraits::from_strs(op, self.shape, self.thr, self.a, self.b, self.c)
    }
}

/// Product of the integer leaves of a shape (no staticness bookkeeping: a plain count).
pub(crate) fn shape_product(t: &IntTuple) -> i64 {
    t.leaves()
        .iter()
        .map(|l| l.as_int().map_or(1, |i| i.value))
        .product()
}

/// `UniversalFMA<D,A,B,C>` with any four value types.
fn is_universal_fma(key: &str) -> bool {
    key.strip_prefix("UniversalFMA<")
        .and_then(|r| r.strip_suffix('>'))
        .is_some_and(|inner| {
            inner.split(',').count() == 4 && inner.split(',').all(|t| !t.is_empty())
        })
}

/// Remove whitespace and `cute::` qualifiers, so `cute::UniversalCopy< uint128_t >` matches.
pub(crate) fn normalize(name: &str) -> String {
    let compact: String = name.chars().filter(|c| !c.is_whitespace()).collect();
    compact.replace("cute::", "")
}

/// The error for an operation name that is not in a table, with the nearest known name.
pub(crate) fn unknown_op(kind: &str, name: &str, key: &str, known: &[&str]) -> LayoutError {
    let name = crate::limits::clip(name);
    match nearest_name(key, known) {
        Some(s) => LayoutError::invalid(format!(
            "unknown {kind} operation `{name}`; did you mean `{s}`?"
        )),
        None => LayoutError::invalid(format!("unknown {kind} operation `{name}`")),
    }
}
