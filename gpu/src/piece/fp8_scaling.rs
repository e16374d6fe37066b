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
//! let p = Promotion { acc: &acc, m_chunks: 1, tile: (128, 128), row_base: " + cw * 64".into(), staged: false, overlap: false, stagger: 0 };
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
/// let p = Promotion { acc: &acc, m_chunks: 2, tile: (128, 128), row_base: String::new(), staged: false, overlap: false, stagger: 0 };
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
    /// The scales are staged in shared memory by the producer ([`stage_scales`](Self::stage_scales)) and
    /// read there (`scl`, one [`scale_slot_bytes`] slot per stage) instead of from global memory.
    pub staged: bool,
    /// Two product buffers (`tmp0`, `tmp1`): k-block `kb + 1`'s wgmmas run while k-block `kb`'s product is
    /// promoted (one 128-column split, staged scales; 3 x 64 registers of products and sums per thread at
    /// 64 x 128 per consumer).
    pub overlap: bool,
    /// Cycles the second consumer waits at the start of each tile (cooperative consumers), so that the
    /// two consumers' promotions fall at different times instead of leaving the tensor core idle together.
    pub stagger: u32,
}

/// Bytes of one stage's staged scales: the tile's `bm` A scales, then one B scale per 128 columns (at least
/// one), padded to 16 bytes.
///
/// ```
/// use cute_gpu::piece::fp8_scaling::scale_slot_bytes;
/// assert_eq!(scale_slot_bytes(128, 256), 528); // 130 floats -> 528 bytes
/// assert_eq!(scale_slot_bytes(64, 64), 272);
/// ```
pub fn scale_slot_bytes(bm: i64, bn: i64) -> i64 {
    ((bm + (bn / SCALE_BLOCK).max(1)) * 4 + 15) / 16 * 16
}

/// Device functions of the staged scales: `cp_async_f32` (4 bytes global -> shared, zero-filled when
/// `bytes` is 0), `cp_async_arrive` (the mbarrier counts one arrival once this thread's copies landed),
/// `lds_f32`.
///
/// ```
/// let f = cute_gpu::piece::fp8_scaling::STAGED_SCALE_FNS;
/// assert!(f.contains("cp.async.ca.shared.global [%0], [%1], 4, %2;"));
/// assert!(f.contains("cp.async.mbarrier.arrive.noinc.shared::cta.b64"));
/// ```
pub const STAGED_SCALE_FNS: &str = r#"__device__ __forceinline__ void cp_async_f32(u32 dst, const float* src, u32 bytes) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" :: "r"(dst), "l"(src), "r"(bytes) : "memory");
}
__device__ __forceinline__ void cp_async_arrive(u32 bar) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" :: "r"(bar) : "memory");
}
__device__ __forceinline__ float lds_f32(u32 a) {
  float v;
  asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v) : "r"(a) : "memory");
  return v;
}
"#;

impl Promotion<'_> {
    /// Column splits of the tile, one per 128-column B scale block (1 when `bn` <= 128): each k-block runs
    /// the splits one after the other into the same `tmp`, so that only one split's product is held
    /// besides the f32 sums.
    ///
    /// ```
    /// use cute_gpu::piece::{epilogue_sm90::Accumulators, fp8_scaling::Promotion};
    /// let acc = Accumulators::new(128).unwrap();
    /// let p = Promotion { acc: &acc, m_chunks: 1, tile: (128, 256), row_base: String::new(), staged: false, overlap: false, stagger: 0 };
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
    /// let p = Promotion { acc: &acc, m_chunks: 1, tile: (128, 256), row_base: String::new(), staged: false, overlap: false, stagger: 0 };
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

    /// Reads of this stage's staged scales into `sa_a`, `sa_b` (the thread's rows, each split's B scale).
    fn read_staged(&self) -> String {
        let ((bm, _), m_chunks, splits) = (self.tile, self.m_chunks, self.splits());
        format!(
            r#"{{   // this stage's scales, staged by the producer: A's {bm} rows, then B's per split
          const u32 sc = scl + s * {}u;
#pragma unroll
          for (int c = 0; c < {m_chunks}; ++c)
#pragma unroll
            for (int h = 0; h < 2; ++h)
              sa_a[c][h] = lds_f32(sc + 4u * (0{} + c * 64 + ({}) + {} * h));
#pragma unroll
          for (int q = 0; q < {splits}; ++q) sa_b[q] = lds_f32(sc + 4u * ({bm} + q));
        }}
"#,
            scale_slot_bytes(self.tile.0, self.tile.1),
            self.row_base,
            self.acc.fragment.row,
            self.acc.h_rows
        )
    }

    /// The producer's scale warp, for stage `s` of k-block `kb` of tile (`tm`, `tn`): each lane copies A
    /// scales (rows `lane`, `lane + 32`, ...; zeros past M) and B scales (one per split, zeros past N) into
    /// the stage's slot with `cp.async`, and the stage's full barrier counts the lane once they landed.
    ///
    /// ```
    /// use cute_gpu::piece::{epilogue_sm90::Accumulators, fp8_scaling::Promotion};
    /// let acc = Accumulators::new(128).unwrap();
    /// let p = Promotion { acc: &acc, m_chunks: 1, tile: (128, 256), row_base: String::new(), staged: true, overlap: false, stagger: 0 };
    /// let c = p.stage_scales();
    /// assert!(c.contains("for (int i = lane; i < 128; i += 32)") && c.contains("if (lane < 2)"));
    /// assert!(c.contains("cp_async_arrive(full_bar + 8 * s);"));
    /// ```
    pub fn stage_scales(&self) -> String {
        let ((bm, bn), splits) = (self.tile, self.splits());
        format!(
            r#"          const u32 sc = scl + s * {}u;
          for (int i = lane; i < {bm}; i += 32) {{
            const int r = tm * {bm} + i;
            cp_async_f32(sc + 4u * i, scale_a + (r < M ? (long long)kb * M + r : 0), r < M ? 4u : 0u);
          }}
          if (lane < {splits}) {{   // splits past N read nothing
            const int col0 = tn * {bn} + lane * {};
            cp_async_f32(sc + 4u * ({bm} + lane), scale_b + (col0 < N ? (long long)(col0 / {SCALE_BLOCK}) * ktiles + kb : 0), col0 < N ? 4u : 0u);
          }}
          cp_async_arrive(full_bar + 8 * s);
"#,
            scale_slot_bytes(bm, bn),
            self.split_n()
        )
    }

    /// The second consumer's delay at the start of a tile (empty without [`stagger`](Self::stagger)).
    ///
    /// ```
    /// use cute_gpu::piece::{epilogue_sm90::Accumulators, fp8_scaling::Promotion};
    /// let acc = Accumulators::new(128).unwrap();
    /// let p = Promotion { acc: &acc, m_chunks: 1, tile: (128, 256), row_base: String::new(), staged: false, overlap: false, stagger: 256 };
    /// assert!(p.delay().contains("clock64() - t0 < 256"));
    /// ```
    pub fn delay(&self) -> String {
        if self.stagger == 0 {
            return String::new();
        }
        format!(
            "\n      if (cw == 1) {{   // stagger: the consumers' promotions alternate\n        const long long t0 = clock64();\n        while (clock64() - t0 < {}) {{}}\n      }}",
            self.stagger
        )
    }

    /// Before a tile's k-blocks: the first k-block's scales (`sa_a`, `sa_b`).
    ///
    /// ```
    /// use cute_gpu::piece::{epilogue_sm90::Accumulators, fp8_scaling::Promotion};
    /// let acc = Accumulators::new(128).unwrap();
    /// let p = Promotion { acc: &acc, m_chunks: 1, tile: (128, 256), row_base: String::new(), staged: false, overlap: false, stagger: 0 };
    /// let c = p.prologue();
    /// assert!(c.contains("float sa_a[1][2], sa_b[2];"));
    /// assert!(c.contains("scale_a[(long long)(0) * M + r]"));
    /// ```
    pub fn prologue(&self) -> String {
        if self.staged {
            return format!(
                "float sa_a[{}][2], sa_b[{}];   // this k-block's scales, read from the stage\n",
                self.m_chunks,
                self.splits()
            );
        }
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

    /// While the first split's wgmmas run: the next k-block's scales (`ns_a`, `ns_b`), or with [`staged`](Self::staged)
    /// scales this k-block's from the stage's slot (`sa_a`, `sa_b`).
    ///
    /// ```
    /// use cute_gpu::piece::{epilogue_sm90::Accumulators, fp8_scaling::Promotion};
    /// let acc = Accumulators::new(128).unwrap();
    /// let p = Promotion { acc: &acc, m_chunks: 1, tile: (128, 256), row_base: String::new(), staged: false, overlap: false, stagger: 0 };
    /// let c = p.scales();
    /// assert!(c.contains("float ns_a[1][2] = {}, ns_b[2] = {};"));
    /// assert!(c.contains("if (kb + 1 < ktiles)"));
    /// ```
    pub fn scales(&self) -> String {
        if self.staged {
            return format!("        {}", self.read_staged());
        }
        format!(
            "        float ns_a[{}][2] = {{}}, ns_b[{}] = {{}};
        if (kb + 1 < ktiles) {}
",
            self.m_chunks,
            self.splits(),
            self.load("ns_", "kb + 1")
        )
    }

    /// `acc += {tmp} * scale` for split `s`'s registers (value `i` of the split is in row pair
    /// `h = (i / 2) % 2`, column group `s * split_n / 8 + i / 4`); after the last split the next k-block's
    /// scales become current.
    ///
    /// ```
    /// use cute_gpu::piece::{epilogue_sm90::Accumulators, fp8_scaling::Promotion};
    /// let acc = Accumulators::new(128).unwrap();
    /// let p = Promotion { acc: &acc, m_chunks: 1, tile: (128, 256), row_base: String::new(), staged: false, overlap: false, stagger: 0 };
    /// // split 1 of 2 adds into the accumulators' second half (registers 64..128)
    /// assert!(p.promote(1, "tmp").contains("acc[c][64 + i] += tmp[c][i]"));
    /// assert!(p.promote(0, "tmp1").contains("acc[c][0 + i] += tmp1[c][i]"));
    /// ```
    pub fn promote(&self, s: i64, tmp: &str) -> String {
        let (m_chunks, nacc) = (self.m_chunks, self.split_n() / 2);
        let mut c = format!(
            r#"        // promotion of split {s}: the k-block's product, scaled, into the f32 accumulators
#pragma unroll
        for (int c = 0; c < {m_chunks}; ++c) {{
          const float s0 = sa_a[c][0] * sa_b[{s}], s1 = sa_a[c][1] * sa_b[{s}];
#pragma unroll
          for (int i = 0; i < {nacc}; ++i) acc[c][{} + i] += {tmp}[c][i] * ((i >> 1) & 1 ? s1 : s0);
        }}
"#,
            s * nacc
        );
        if s + 1 == self.splits() && !self.staged {
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
