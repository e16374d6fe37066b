//! SM80 GEMM epilogues: from the `mma.sync` C fragments to D. Where a lane's values sit in each m16n8
//! atom comes from the atom's C layout ([`Fragment`]: `((_4,_8),(_2,_2)):((_2@1,_1@0),(_1@1,_8@0))`,
//! lane -> `(frag_row, frag_col)`, value pair `h` -> `+ 8h` rows).
//!
//! - [`Epilogue::staged`]: through shared memory, as `(bm, bn):(pitch, _1)` output elements (pitch =
//!   bn + 16 bytes: the 8 rows of a fragment store land 4 banks apart, conflict-free), then 16-byte chunks
//!   with TV layout `(threads, iters):(_1, threads)`, chunk `q -> (row, col) = (q / cpr, (q % cpr) * vec)`,
//!   stored coalesced; for interior tiles with beta = 0.
//! - [`Epilogue::direct`]: `D = alpha*acc + beta*C` pair by pair, predicated on M and N.
//!
//! ```
//! use cute_gpu::{DType, atom::{sm80_mma, Fragment}, emit::Leaf, piece::epilogue_sm80::Epilogue};
//! let mma = sm80_mma(DType::BF16).unwrap();
//! let (fragment, ldc) = (Fragment::new(&mma.layout_c, 16, "lane").unwrap(), Leaf::new(cute_layout_core::Int::s(256), "ldc"));
//! let e = Epilogue { tile: (128, 256), warp_tile: (64, 64), atoms: (4, 8), threads: 256, output: DType::F32,
//!     ldc: &ldc, extents: ("M".into(), "N".into()), fragment: &fragment, atom_mn: (16, 8), op: Default::default() };
//! // staging the padded f32 tile takes 128 x (256 + 4) x 4 = 133120 bytes of the pipeline's shared memory
//! assert!(e.can_stage(133120) && !e.can_stage(98304));
//! ```

use crate::atom::Fragment;
use crate::dtype::DType;
use crate::emit::Leaf;
use crate::piece::epilogue_op::EpilogueOp;

/// The epilogue's geometry: CTA tile, warp tile, atoms per warp, output type and leading dimension.
///
/// ```
/// use cute_gpu::{DType, atom::{sm80_mma, Fragment}, emit::Leaf, piece::epilogue_sm80::Epilogue};
/// use cute_layout_core::Int;
/// let mma = sm80_mma(DType::F16).unwrap();
/// let fragment = Fragment::new(&mma.layout_c, 16, "lane").unwrap();
/// let ldc = Leaf::new(Int::d(4096), "ldc");
/// let e = Epilogue {
///     tile: (128, 128), warp_tile: (64, 64), atoms: (4, 8), threads: 128, output: DType::F16,
///     ldc: &ldc, extents: ("M".into(), "N".into()), fragment: &fragment, atom_mn: (16, 8),
///     op: Default::default(),
/// };
/// assert!(e.direct().contains("const int frag_row = (lane / 4), frag_col = (lane % 4) * 2;"));
/// ```
pub struct Epilogue<'a> {
    /// CTA tile (bm, bn).
    pub tile: (i64, i64),
    /// Warp tile (wtm, wtn).
    pub warp_tile: (i64, i64),
    /// Atoms per warp (mi_n, ni_n).
    pub atoms: (i64, i64),
    /// Threads of the CTA.
    pub threads: i64,
    /// Output type.
    pub output: DType,
    /// Leading dimension of C and D.
    pub ldc: &'a Leaf,
    /// The M and N extents (C expressions).
    pub extents: (String, String),
    /// The atom's C fragment (for `lane`) and its extent `(m, n)`.
    pub fragment: &'a Fragment,
    /// The atom's extent `(m, n)` (16, 8).
    pub atom_mn: (i64, i64),
    /// The fused bias and activation (alpha and beta are the epilogue's own).
    pub op: EpilogueOp,
}

impl Epilogue<'_> {
    /// `const int frag_row = .., frag_col = ..;` at `indent`.
    fn fragment_coords(&self, indent: &str) -> String {
        format!(
            "{indent}const int frag_row = {}, frag_col = {};  // C atom {}: lane -> (row, col) of its first value\n",
            self.fragment.row, self.fragment.col, self.fragment.layout
        )
    }

    /// Rows between the two value pairs of a lane (the C layout's value 2).
    fn pair_rows(&self) -> i64 {
        self.fragment.value(2).map(|v| v[0]).unwrap_or(8)
    }

    fn osize(&self) -> i64 {
        self.output.bytes()
    }

    /// Whether the staged epilogue applies: the padded tile fits in `smem` bytes and splits into whole
    /// 16-byte chunks per thread.
    ///
    /// ```
    /// # use cute_gpu::{DType, atom::{sm80_mma, Fragment}, emit::Leaf, piece::epilogue_sm80::Epilogue};
    /// # use cute_layout_core::Int;
    /// # let mma = sm80_mma(DType::F16).unwrap();
    /// # let fragment = Fragment::new(&mma.layout_c, 16, "lane").unwrap();
    /// # let ldc = Leaf::new(Int::d(4096), "ldc");
    /// # let e = Epilogue {
    /// #     tile: (128, 128), warp_tile: (64, 64), atoms: (4, 8), threads: 128, output: DType::F16,
    /// #     ldc: &ldc, extents: ("M".into(), "N".into()), fragment: &fragment, atom_mn: (16, 8),
    /// #     op: Default::default(),
    /// # };
    /// // the padded f16 tile: 128 x (128 + 8) x 2 bytes = 34816
    /// assert!(e.can_stage(65536) && e.can_stage(34816));
    /// assert!(!e.can_stage(32768));
    /// ```
    pub fn can_stage(&self, smem: i64) -> bool {
        let ((bm, bn), osize) = (self.tile, self.osize());
        let vec = 16 / osize;
        bm * (bn + vec) * osize <= smem
            && (bn * osize) % 16 == 0
            && (bm * bn / vec) % self.threads == 0
    }

    /// The staged epilogue (returns from the kernel when taken).
    ///
    /// ```
    /// # use cute_gpu::{DType, atom::{sm80_mma, Fragment}, emit::Leaf, piece::epilogue_sm80::Epilogue};
    /// # use cute_layout_core::Int;
    /// # let mma = sm80_mma(DType::F16).unwrap();
    /// # let fragment = Fragment::new(&mma.layout_c, 16, "lane").unwrap();
    /// # let ldc = Leaf::new(Int::d(4096), "ldc");
    /// # let e = Epilogue {
    /// #     tile: (128, 128), warp_tile: (64, 64), atoms: (4, 8), threads: 128, output: DType::F16,
    /// #     ldc: &ldc, extents: ("M".into(), "N".into()), fragment: &fragment, atom_mn: (16, 8),
    /// #     op: Default::default(),
    /// # };
    /// let c = e.staged();
    /// assert!(c.starts_with("  if (beta == 0.f && interior && ldc % 8 == 0) {"));
    /// // 128 x 128 outputs in 16-byte chunks of 8, over 128 threads: 16 chunks each
    /// assert!(c.contains("for (int i = 0; i < 16; ++i) {") && c.ends_with("return;\n  }\n"));
    /// ```
    pub fn staged(&self) -> String {
        let ((bm, bn), (wtm, wtn), (mi_n, ni_n)) = (self.tile, self.warp_tile, self.atoms);
        let (threads, oty, osize, ldc) = (self.threads, self.output, self.osize(), self.ldc);
        let out_c = oty.c_type();
        let vec = 16 / osize;
        let pitch = bn + vec;
        let mut c = String::new();
        let cpr = bn / vec;
        let iters = bm * bn / vec / threads;
        c += &format!(
            "  if (beta == 0.f && interior && {} % {vec} == 0) {{\n",
            ldc.expr()
        );
        c += "    // staged epilogue: every warp is done with the pipeline's shared memory before D reuses it\n";
        c += "    __syncthreads();\n";
        c += &self.fragment_coords("    ");
        let ((am, an), h8) = (self.atom_mn, self.pair_rows());
        c += &format!(
            "    // (m, n) = (wm*{wtm} + i*{am} + frag_row + {h8}h, wn*{wtn} + j*{an} + frag_col) -> smem byte (m*{pitch} + n)*{osize}\n"
        );
        c += &format!("    #pragma unroll\n    for (int i = 0; i < {mi_n}; ++i)\n");
        c += &format!("      #pragma unroll\n      for (int j = 0; j < {ni_n}; ++j)\n");
        c += "        #pragma unroll\n        for (int h = 0; h < 2; ++h) {\n";
        c += &format!(
            "          const unsigned int so = sbase + ((wm * {wtm} + i * {am} + frag_row + {h8} * h) * {pitch} + wn * {wtn} + j * {an} + frag_col) * {osize};\n"
        );
        if self.op.is_identity() {
            c += "          const float v0 = alpha * acc[i][j][2 * h], v1 = alpha * acc[i][j][2 * h + 1];\n";
        } else {
            c += &format!(
                "          const int gm = m0 + wm * {wtm} + i * {am} + frag_row + {h8} * h, gn = n0 + wn * {wtn} + j * {an} + frag_col;\n          const float v0 = {}, v1 = {};\n",
                self.op.apply("alpha * acc[i][j][2 * h]", "gm", "gn"),
                self.op
                    .apply("alpha * acc[i][j][2 * h + 1]", "gm", "gn + 1")
            );
        }
        match oty {
            DType::F32 => {
                c += "          asm volatile(\"st.shared.v2.f32 [%0], {%1,%2};\" :: \"r\"(so), \"f\"(v0), \"f\"(v1) : \"memory\");\n";
            }
            DType::E4M3 | DType::E5M2 => {
                unreachable!("FP8 is an input type only (the generators check outputs)")
            }
            DType::F16 | DType::BF16 => {
                let to = if oty == DType::F16 {
                    "f32_to_f16"
                } else {
                    "f32_to_bf16"
                };
                c += &format!(
                    "          const unsigned int w = (unsigned int){to}(v0) | ((unsigned int){to}(v1) << 16);\n"
                );
                c += "          asm volatile(\"st.shared.b32 [%0], %1;\" :: \"r\"(so), \"r\"(w) : \"memory\");\n";
            }
        }
        c += "        }\n    __syncthreads();\n";
        c += &format!(
            "    // chunk q = tid + i*{threads} -> (row, col) = (q / {cpr}, (q % {cpr}) * {vec})\n"
        );
        c += &format!("    #pragma unroll\n    for (int i = 0; i < {iters}; ++i) {{\n");
        c += &format!(
            "      const int q = tid + i * {threads}, row = q / {cpr}, col = (q % {cpr}) * {vec};\n"
        );
        c += &format!(
            "      unsigned int w[4];\n      asm volatile(\"ld.shared.v4.b32 {{%0,%1,%2,%3}}, [%4];\" : \"=r\"(w[0]), \"=r\"(w[1]), \"=r\"(w[2]), \"=r\"(w[3]) : \"r\"(sbase + (row * {pitch} + col) * {osize}));\n"
        );
        c += &format!(
            "      {out_c}* dst = D + (long long)(m0 + row) * (long long)({}) + n0 + col;\n",
            ldc.expr()
        );
        c += "      asm volatile(\"st.global.v4.b32 [%0], {%1,%2,%3,%4};\" :: \"l\"(dst), \"r\"(w[0]), \"r\"(w[1]), \"r\"(w[2]), \"r\"(w[3]) : \"memory\");\n";
        c += "    }\n    return;\n  }\n";
        c
    }

    /// The direct, predicated epilogue.
    ///
    /// ```
    /// # use cute_gpu::{DType, atom::{sm80_mma, Fragment}, emit::Leaf, piece::epilogue_sm80::Epilogue};
    /// # use cute_layout_core::Int;
    /// # let mma = sm80_mma(DType::F16).unwrap();
    /// # let fragment = Fragment::new(&mma.layout_c, 16, "lane").unwrap();
    /// # let ldc = Leaf::new(Int::d(4096), "ldc");
    /// # let e = Epilogue {
    /// #     tile: (128, 128), warp_tile: (64, 64), atoms: (4, 8), threads: 128, output: DType::F16,
    /// #     ldc: &ldc, extents: ("M".into(), "N".into()), fragment: &fragment, atom_mn: (16, 8),
    /// #     op: Default::default(),
    /// # };
    /// let c = e.direct();
    /// assert!(c.contains("const int n = n0 + wn * 64 + j * 8 + frag_col;"));
    /// assert!(c.contains("if (m >= M || n >= N) continue;"));
    /// ```
    pub fn direct(&self) -> String {
        let ((wtm, wtn), (mi_n, ni_n)) = (self.warp_tile, self.atoms);
        let (oty, ldc) = (self.output, self.ldc);
        let (mx, nx) = (&self.extents.0, &self.extents.1);
        let mut c = String::new();
        // epilogue
        c += "  // epilogue: C atom layout -> (m, n); D = alpha*acc + beta*C, pairs along n, predicated on M and N\n";
        c += &self.fragment_coords("  ");
        let ((am, an), h8) = (self.atom_mn, self.pair_rows());
        c += &format!("  #pragma unroll\n  for (int i = 0; i < {mi_n}; ++i) {{\n");
        c += &format!("    #pragma unroll\n    for (int j = 0; j < {ni_n}; ++j) {{\n");
        c += &format!("      const int n = n0 + wn * {wtn} + j * {an} + frag_col;\n");
        c += "      #pragma unroll\n      for (int h = 0; h < 2; ++h) {\n";
        c += &format!("        const int m = m0 + wm * {wtm} + i * {am} + frag_row + {h8} * h;\n");
        c += &format!("        if (m >= {mx} || n >= {nx}) continue;\n");
        c += &format!(
            "        const long long off = (long long)m * (long long)({}) + n;\n",
            ldc.expr()
        );
        c += &format!("        const bool pair = n + 1 < {nx};\n");
        c += "        float v0 = alpha * acc[i][j][2 * h], v1 = alpha * acc[i][j][2 * h + 1];\n";
        let (rd, wr) = match oty {
    DType::F32 => (
        "          v0 += beta * C[off]; if (pair) v1 += beta * C[off + 1];\n".to_string(),
        "        if (pair) { asm volatile(\"st.global.v2.f32 [%0], {%1,%2};\" :: \"l\"(D + off), \"f\"(v0), \"f\"(v1) : \"memory\"); }\n        else D[off] = v0;\n".to_string(),
    ),
    DType::E4M3 | DType::E5M2 => unreachable!("FP8 is an input type only (the generators check outputs)"),
    DType::F16 | DType::BF16 => {
        let (to, from) = if oty == DType::F16 { ("f32_to_f16", "f16_to_f32") } else { ("f32_to_bf16", "bf16_to_f32") };
        (
            format!("          v0 += beta * {from}(C[off]); if (pair) v1 += beta * {from}(C[off + 1]);\n"),
            format!(
                "        if (pair) {{ const unsigned int w = (unsigned int){to}(v0) | ((unsigned int){to}(v1) << 16); asm volatile(\"st.global.b32 [%0], %1;\" :: \"l\"(D + off), \"r\"(w) : \"memory\"); }}\n        else D[off] = {to}(v0);\n"
            ),
        )
    }
};
        c += "        if (beta != 0.f) {\n";
        c += &rd;
        c += "        }\n";
        if !self.op.is_identity() {
            c += &format!(
                "        v0 = {}; v1 = {};\n",
                self.op.apply("v0", "m", "n"),
                self.op.apply("v1", "m", "n + 1")
            );
        }
        c += &wr;
        c += "      }\n    }\n  }\n";
        c
    }
}
