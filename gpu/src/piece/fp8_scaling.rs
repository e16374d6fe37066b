//! FP8 scaling of the SM90 GEMM: per-tensor scales applied to the accumulators before the epilogue, or
//! DeepSeek-V3-style block scales with the accumulators promoted to f32 registers every 128 of K.
//!
//! FP8 wgmma accumulates in a reduced-precision internal format; block scaling must apply each
//! k-block's scales anyway, so each k-block's wgmmas start from zero (`scale-d = 0`) into temporary
//! accumulators, and once they are done the consumer adds `tmp * scale_a[row] * scale_b` to the f32
//! accumulators. Which rows a thread's registers hold comes from the GMMA accumulator layout
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
//! assert!(p.scales().contains("scale_a[(long long)(kb + 1) * M + r]"));
//! assert_eq!((p.splits(), p.split_n()), (1, 128));
//! assert_eq!(Scaling::Block.tag(), "_bs");
//! ```

use crate::error::Result;
use crate::piece::epilogue_sm90::Accumulators;

/// K (and N) per scale block of the block-scaled GEMM.
///
/// ```
/// use cute_gpu::piece::fp8_scaling::{SCALE_BLOCK, Scaling};
/// assert_eq!(SCALE_BLOCK, 128);
/// // K = 300 has ceil(300 / 128) = 3 scale blocks
/// assert_eq!(Scaling::Block.scale_lens(256, 256, 300).unwrap(), (256 * 3, 2 * 3));
/// ```
pub const SCALE_BLOCK: i64 = 128;

/// How an FP8 GEMM's product is scaled.
///
/// ```
/// use cute_gpu::piece::fp8_scaling::Scaling;
/// assert_eq!(Scaling::PerTensor.scale_lens(4096, 4096, 4096).unwrap(), (1, 1));
/// assert_ne!(Scaling::PerTensor, Scaling::Block);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scaling {
    /// `D = scale_a * scale_b * (A·B)`, scales as device scalars (as `torch._scaled_mm`).
    PerTensor,
    /// A per 1x128 block (row, 128 of K), B per 128x128 block, promoted every 128 of K.
    Block,
}

impl Scaling {
    /// Kernel name suffix.
    ///
    /// ```
    /// use cute_gpu::piece::fp8_scaling::Scaling;
    /// assert_eq!((Scaling::PerTensor.tag(), Scaling::Block.tag()), ("_pt", "_bs"));
    /// ```
    pub fn tag(self) -> &'static str {
        match self {
            Scaling::PerTensor => "_pt",
            Scaling::Block => "_bs",
        }
    }

    /// Elements of A's and B's scale buffers for an `m x n x k` problem.
    ///
    /// ```
    /// use cute_gpu::piece::fp8_scaling::Scaling;
    /// // A: (M, ceil(K/128)) = (512, 8); B: (ceil(N/128), ceil(K/128)) = (2, 8)
    /// assert_eq!(Scaling::Block.scale_lens(512, 256, 1024).unwrap(), (4096, 16));
    /// assert_eq!(Scaling::PerTensor.scale_lens(512, 256, 1024).unwrap(), (1, 1));
    /// ```
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
    ///
    /// ```
    /// let c = cute_gpu::piece::fp8_scaling::Scaling::per_tensor_prologue(2, 64);
    /// assert!(c.contains("const float ab = scale_a[0] * scale_b[0];"));
    /// assert!(c.contains("for (int c = 0; c < 2; ++c)") && c.contains("i < 64; ++i) acc[c][i] *= ab;"));
    /// ```
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

/// The block-scaled promotion of one consumer's accumulators.
///
/// ```
/// use cute_gpu::piece::{epilogue_sm90::Accumulators, fp8_scaling::Promotion};
/// let acc = Accumulators::new(128).unwrap();
/// let p = Promotion { acc: &acc, m_chunks: 2, tile: (128, 128), row_base: String::new() };
/// assert!(p.prologue().contains("float sa_a[2][2], sa_b[1];"));
/// ```
pub struct Promotion<'a> {
    /// Accumulator placement.
    pub acc: &'a Accumulators,
    /// 64-row chunks per consumer.
    pub m_chunks: i64,
    /// CTA tile (bm, bn); `bn` divides 128 or is a multiple of it.
    pub tile: (i64, i64),
    /// `" + cw * rows"` when consumers split the tile's rows, else empty.
    pub row_base: String,
}

impl Promotion<'_> {
    /// Column splits of the tile, one per 128-column B scale block (1 when `bn` <= 128): each k-block runs
    /// the splits one after the other into the same `tmp`, so that only one split's product is held
    /// besides the f32 sums.
    ///
    /// ```
    /// use cute_gpu::piece::{epilogue_sm90::Accumulators, fp8_scaling::Promotion};
    /// let acc = Accumulators::new(128).unwrap();
    /// let p = Promotion { acc: &acc, m_chunks: 1, tile: (128, 256), row_base: String::new() };
    /// assert_eq!(p.splits(), 2); // bn = 256: two 128-column B scale blocks
    /// ```
    pub fn splits(&self) -> i64 {
        (self.tile.1 / SCALE_BLOCK).max(1)
    }

    /// The wgmma N of one split.
    ///
    /// ```
    /// use cute_gpu::piece::{epilogue_sm90::Accumulators, fp8_scaling::Promotion};
    /// let acc = Accumulators::new(128).unwrap();
    /// let p = Promotion { acc: &acc, m_chunks: 1, tile: (128, 256), row_base: String::new() };
    /// assert_eq!(p.split_n(), 128);
    /// ```
    pub fn split_n(&self) -> i64 {
        self.tile.1 / self.splits()
    }

    /// Loads of k-block `kb`'s scales: `{dst}a[c][h]`, the A scale of the thread's row in chunk `c`, row
    /// pair `h` (0 past M), and `{dst}b[s]`, the B scale of split `s`.
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
              {dst}a[c][h] = r < M ? scale_a[(long long)({kb}) * M + r] : 0.f;
            }}
#pragma unroll
          for (int q = 0; q < {splits}; ++q) {{   // splits past N (a tile across the right edge) read nothing
            const int col0 = tn * {bn} + q * {split_n};
            {dst}b[q] = col0 < N ? scale_b[(long long)(col0 / {SCALE_BLOCK}) * ktiles + ({kb})] : 0.f;
          }}
        }}"#,
            self.row_base,
            f.row,
            split_n = self.split_n(),
            h = self.acc.h_rows,
        )
    }

    /// Before a tile's k-blocks: the first k-block's scales (`sa_a`, `sa_b`).
    ///
    /// ```
    /// use cute_gpu::piece::{epilogue_sm90::Accumulators, fp8_scaling::Promotion};
    /// let acc = Accumulators::new(128).unwrap();
    /// let p = Promotion { acc: &acc, m_chunks: 1, tile: (128, 256), row_base: String::new() };
    /// let c = p.prologue();
    /// assert!(c.contains("float sa_a[1][2], sa_b[2];"));
    /// assert!(c.contains("scale_a[(long long)(0) * M + r]"));
    /// ```
    pub fn prologue(&self) -> String {
        format!(
            "// block scales: B per ({SCALE_BLOCK} cols, {SCALE_BLOCK} of K), A per (row, {SCALE_BLOCK} of K) for the thread's rows
      // (gmma_c_layout: value 2h + .. is in row frag_row + {} * h); loaded one k-block ahead
      float sa_a[{}][2], sa_b[{}];
      {}
",
            self.acc.h_rows,
            self.m_chunks,
            self.splits(),
            self.load("sa_", "0")
        )
    }

    /// While the first split's wgmmas run: the next k-block's scales (`ns_a`, `ns_b`).
    ///
    /// ```
    /// use cute_gpu::piece::{epilogue_sm90::Accumulators, fp8_scaling::Promotion};
    /// let acc = Accumulators::new(128).unwrap();
    /// let p = Promotion { acc: &acc, m_chunks: 1, tile: (128, 256), row_base: String::new() };
    /// let c = p.scales();
    /// assert!(c.contains("float ns_a[1][2] = {}, ns_b[2] = {};"));
    /// assert!(c.contains("if (kb + 1 < ktiles)"));
    /// ```
    pub fn scales(&self) -> String {
        format!(
            "        float ns_a[{}][2] = {{}}, ns_b[{}] = {{}};
        if (kb + 1 < ktiles) {}
",
            self.m_chunks,
            self.splits(),
            self.load("ns_", "kb + 1")
        )
    }

    /// `acc += tmp * scale` for split `s`'s registers (value `i` of the split is in row pair
    /// `h = (i / 2) % 2`, column group `s * split_n / 8 + i / 4`); after the last split the next k-block's
    /// scales become current.
    ///
    /// ```
    /// use cute_gpu::piece::{epilogue_sm90::Accumulators, fp8_scaling::Promotion};
    /// let acc = Accumulators::new(128).unwrap();
    /// let p = Promotion { acc: &acc, m_chunks: 1, tile: (128, 256), row_base: String::new() };
    /// // split 1 of 2 adds into the accumulators' second half (registers 64..128)
    /// assert!(p.promote(1).contains("acc[c][64 + i] += tmp[c][i]"));
    /// assert!(p.promote(0).contains("acc[c][0 + i] += tmp[c][i]"));
    /// ```
    pub fn promote(&self, s: i64) -> String {
        let (m_chunks, nacc) = (self.m_chunks, self.split_n() / 2);
        let mut c = format!(
            r#"        // promotion of split {s}: the k-block's product, scaled, into the f32 accumulators
#pragma unroll
        for (int c = 0; c < {m_chunks}; ++c) {{
          const float s0 = sa_a[c][0] * sa_b[{s}], s1 = sa_a[c][1] * sa_b[{s}];
#pragma unroll
          for (int i = 0; i < {nacc}; ++i) acc[c][{} + i] += tmp[c][i] * ((i >> 1) & 1 ? s1 : s0);
        }}
"#,
            s * nacc
        );
        if s + 1 == self.splits() {
            c += &format!(
                r#"#pragma unroll
        for (int c = 0; c < {m_chunks}; ++c) {{ sa_a[c][0] = ns_a[c][0]; sa_a[c][1] = ns_a[c][1]; }}
#pragma unroll
        for (int q = 0; q < {}; ++q) sa_b[q] = ns_b[q];
"#,
                self.splits()
            );
        }
        c
    }
}
