//! FP8 scaling of the SM90 GEMM: per-tensor scales applied to the accumulators before the epilogue, or
//! DeepSeek-V3-style block scales with the accumulators promoted to f32 registers every 128 of K.
//!
//! FP8 wgmma accumulates in a reduced-precision internal format; block scaling must apply each
//! k-block's scales anyway, so each k-block's wgmmas start from zero (`scale-d = 0`) into temporary
//! accumulators, and once they are done the consumer adds `tmp * scale_a[row] * scale_b` to the f32
//! accumulators ([`Promotion`]: pipelined over column splits). Which rows a thread's registers hold comes from the GMMA accumulator layout
//! ([`Accumulators`]): register `v = v0 + 2h + 4j` sits in row `frag_row + h_rows * h`.
//!
//! Scale layouts (f32): per tensor, `scale_a[0]`, `scale_b[0]`; per block, A's `(M, ceil(K/128))` column-
//! major (`scale_a[kb * M + m]`, one k-block's scales contiguous, as DeepGEMM), B's
//! `(ceil(N/128), ceil(K/128))` row-major (`scale_b[nb * ceil(K/128) + kb]`).
//!
//! ```
//! use cute_gpu::piece::{epilogue_sm90::Accumulators, fp8_scaling::{Promotion, Scaling}};
//! let acc = Accumulators::new(128).unwrap();
//! let p = Promotion { acc: &acc, m_chunks: 1, tile: (128, 128), row_base: " + cw * 64".into() };
//! assert!(p.advance_scales().contains("scale_a[(long long)(kb + 1) * M + r]"));
//! assert_eq!((p.splits(), p.split_n()), (2, 64));
//! assert_eq!(Scaling::Block.tag(), "_bs");
//! ```

use crate::error::Result;
use crate::piece::epilogue_sm90::Accumulators;

/// K (and N) per scale block of the block-scaled GEMM.
pub const SCALE_BLOCK: i64 = 128;

/// How an FP8 GEMM's product is scaled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scaling {
    /// `D = scale_a * scale_b * (A·B)`, scales as device scalars (as `torch._scaled_mm`).
    PerTensor,
    /// A per 1x128 block (row, 128 of K), B per 128x128 block, promoted every 128 of K.
    Block,
}

impl Scaling {
    /// Kernel name suffix.
    pub fn tag(self) -> &'static str {
        match self {
            Scaling::PerTensor => "_pt",
            Scaling::Block => "_bs",
        }
    }

    /// Elements of A's and B's scale buffers for an `m x n x k` problem.
    pub fn scale_lens(self, m: i64, n: i64, k: i64) -> Result<(i64, i64)> {
        let blocks = |x: i64| (x + SCALE_BLOCK - 1) / SCALE_BLOCK;
        Ok(match self {
            Scaling::PerTensor => (1, 1),
            Scaling::Block => (
                crate::error::mul("scale_a elements", m, blocks(k))?,
                crate::error::mul("scale_b elements", blocks(n), blocks(k))?,
            ),
        })
    }

    /// The per-tensor scaling of the accumulators, emitted before the epilogue.
    pub fn per_tensor_prologue(m_chunks: i64, nacc: i64) -> String {
        format!(
            r#"      {{  // per-tensor FP8 scales: acc *= scale_a * scale_b
        const float ab = scale_a[0] * scale_b[0];
#pragma unroll
        for (int c = 0; c < {m_chunks}; ++c)
#pragma unroll
          for (int i = 0; i < {nacc}; ++i) acc[c][i] *= ab;
      }}
"#
        )
    }
}

/// The block-scaled promotion of one consumer's accumulators, pipelined: each k-block runs as column
/// splits of at most 64 columns (an even number of them), alternately into two buffers `tmp0`, `tmp1`;
/// while one split's wgmmas run, the previous split is promoted (`acc += tmp * sa[row] * sb`), so the
/// tensor core always has one split of this warp group queued. The f32 sums and two split products fit
/// in the registers (`bn/2 + 2 * split/2` per row chunk: 192 for a 64x256 consumer).
pub struct Promotion<'a> {
    /// Accumulator placement.
    pub acc: &'a Accumulators,
    /// 64-row chunks per consumer.
    pub m_chunks: i64,
    /// CTA tile (bm, bn).
    pub tile: (i64, i64),
    /// `" + cw * rows"` when consumers split the tile's rows, else empty.
    pub row_base: String,
}

impl Promotion<'_> {
    /// The wgmma N of one split: 64, or half the tile's N when that is smaller.
    pub fn split_n(&self) -> i64 {
        (self.tile.1 / 2).min(64)
    }

    /// Column splits per k-block (even, so split `s` always uses buffer `tmp{s % 2}`).
    pub fn splits(&self) -> i64 {
        self.tile.1 / self.split_n()
    }

    /// Loads of k-block `kb`'s scales: `{dst}_a[c][h]`, the A scale of the thread's row in chunk `c`, row
    /// pair `h` (0 past M), and `{dst}_b[s]`, the B scale of split `s`'s 128-column block.
    fn load(&self, dst: &str, kb: &str) -> String {
        let ((bm, bn), m_chunks, splits) = (self.tile, self.m_chunks, self.splits());
        let f = &self.acc.fragment;
        format!(
            r#"{{
#pragma unroll
          for (int c = 0; c < {m_chunks}; ++c)
#pragma unroll
            for (int h = 0; h < 2; ++h) {{
              const int r = tm * {bm}{} + c * 64 + ({}) + {h} * h;
              {dst}_a[c][h] = r < M ? scale_a[(long long)({kb}) * M + r] : 0.f;
            }}
#pragma unroll
          for (int q = 0; q < {splits}; ++q)
            {dst}_b[q] = scale_b[(long long)((tn * {bn} + q * {}) / {SCALE_BLOCK}) * ktiles + ({kb})];
        }}"#,
            self.row_base,
            f.row,
            self.split_n(),
            h = self.acc.h_rows,
        )
    }

    /// Before a tile's k-blocks: the split buffers, the scale registers (`cur`: the k-block being
    /// promoted, `nxt`: the next one, loaded a k-block ahead) and the first k-block's scales.
    pub fn prologue(&self) -> String {
        let (m, q, half) = (self.m_chunks, self.splits(), self.split_n() / 2);
        format!(
            "// block scales: B per ({SCALE_BLOCK} cols, {SCALE_BLOCK} of K), A per (row, {SCALE_BLOCK} of K) for the thread's rows
      // (gmma_c_layout: value 2h + .. is in row frag_row + {} * h); loaded one k-block ahead
      float tmp0[{m}][{half}], tmp1[{m}][{half}];   // split products, alternately
      float cur_a[{m}][2], cur_b[{q}], nxt_a[{m}][2], nxt_b[{q}];
      u32 prev = 0;
      {}
",
            self.acc.h_rows,
            self.load("nxt", "0")
        )
    }

    /// At a k-block's first split: the next k-block's scales become current, the one after is loaded.
    pub fn advance_scales(&self) -> String {
        let (m, q) = (self.m_chunks, self.splits());
        format!(
            r#"#pragma unroll
        for (int c = 0; c < {m}; ++c) {{ cur_a[c][0] = nxt_a[c][0]; cur_a[c][1] = nxt_a[c][1]; }}
#pragma unroll
        for (int q = 0; q < {q}; ++q) cur_b[q] = nxt_b[q];
        if (kb + 1 < ktiles) {}
"#,
            self.load("nxt", "kb + 1")
        )
    }

    /// `acc += tmp{s % 2} * scale` for split `s` with the current scales (value `i` of the split is in
    /// row pair `h = (i / 2) % 2`, column group `s * split_n / 8 + i / 4`).
    pub fn promote(&self, s: i64) -> String {
        let (m_chunks, half) = (self.m_chunks, self.split_n() / 2);
        format!(
            r#"#pragma unroll
        for (int c = 0; c < {m_chunks}; ++c) {{   // promote split {s}
          const float s0 = cur_a[c][0] * cur_b[{s}], s1 = cur_a[c][1] * cur_b[{s}];
#pragma unroll
          for (int i = 0; i < {half}; ++i) acc[c][{} + i] += tmp{}[c][i] * ((i >> 1) & 1 ? s1 : s0);
        }}
"#,
            s * half,
            s % 2
        )
    }
}
