//! Split-K summed in the GEMM kernel: the batches of the launch are K slices of one product, and the
//! last slice to finish a warp's rows of a tile adds the others' partial sums before the epilogue, so
//! no second kernel reads them back (CUTLASS's split-K with a separate reduction, or its "serial"
//! reduction, takes a semaphore per tile; here each warp of a consumer is its own unit, since a warp's
//! accumulators cover 16 rows of each 64-row chunk of the tile and no barrier across the warp group is
//! needed).
//!
//! Per unit (tile, row owner, warp) two counters in `SKF`: arrivals and partial sums stored. A warp takes
//! its arrival order (one atomic); all but the last store their sums (f32) in their slice of `W` and
//! count them stored (after a fence) and leave the tile; the last waits until the others' sums are
//! stored (they arrived, so they are running and store without waiting on anything: no deadlock),
//! zeroes both counters for the next call, and adds the sums to its accumulators.
//!
//! ```
//! use cute_gpu::piece::{epilogue_op::EpilogueOp, epilogue_sm90::{Accumulators, Sm90Epilogue}, split_sum::SplitSum};
//! let acc = Accumulators::new(128).unwrap();
//! let epi = Sm90Epilogue { acc: &acc, tile: (128, 128), m_chunks: 1, cw_row: " + cw * 64".into(), osz: 2, op: EpilogueOp::default() };
//! let s = SplitSum { epi: &epi, owner: "cw".into(), owners: 2, splits: 4 };
//! let c = s.code();
//! assert!(c.contains("atomicAdd(&SKF[2u * slot], 1u)") && c.contains("continue;"));
//! assert!(c.contains("__ldcg("));
//! assert_eq!(SplitSum::counter_bytes(8, 16, 2), 2 * 4 * 8 * 16 * 2 * 4);
//! ```

use crate::piece::epilogue_sm90::Sm90Epilogue;

/// Device functions the summation needs: an acquiring load of a counter.
pub const DEVICE_FNS: &str = r#"
__device__ __forceinline__ unsigned ld_acquire_u32(const unsigned* p) {
  unsigned v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
"#;

/// The summation of one consumer's accumulators at the start of its epilogue (in the tile loop, where
/// `tb` is the slice and `tm`, `tn` the tile).
pub struct SplitSum<'a> {
    /// The epilogue that follows: the accumulators' placement, the tile, the consumer's rows.
    pub epi: &'a Sm90Epilogue<'a>,
    /// This consumer's index among the tile's row owners (a C expression: `cw`, or `0`).
    pub owner: String,
    /// Consumers that split a tile's rows (1 for ping-pong).
    pub owners: i64,
    /// K slices (the launch's batches).
    pub splits: i64,
}

/// f32 elements of the workspace `W` for `splits` slices of an `m x n` output: each slice `m` rows of
/// `(n + 3) / 4 * 4` (the kernel's `ldw`, 16-byte rows).
///
/// ```
/// assert_eq!(cute_gpu::piece::split_sum::workspace_elems(2, 16, 4097), 2 * 16 * 4100);
/// ```
pub fn workspace_elems(splits: i64, m: i64, n: i64) -> i64 {
    splits * m * ((n + 3) / 4 * 4)
}

impl SplitSum<'_> {
    /// Bytes of the counters for `tile_rows` x `tile_cols` tiles (rows padded to whole clusters) with
    /// `owners` row owners of 4 warps each: two 32-bit counters per warp.
    pub fn counter_bytes(tile_rows: i64, tile_cols: i64, owners: i64) -> i64 {
        2 * 4 * tile_rows * tile_cols * owners * 4
    }

    /// Loops over this thread's accumulator pairs, predicated at the M and N edges: `body` sees `wr`, the
    /// row's pointer into `w` at the thread's first column, `j` (the pair at `wr + 8 j` on unrolling) and
    /// the pair's first value index `v` in `acc[c]`. One pointer per row keeps the offsets immediate, so
    /// that nothing per pair stays live across the loop over slices.
    fn pairs(&self, body: &str) -> String {
        let ((bm, bn), m_chunks, cw_row) = (self.epi.tile, self.epi.m_chunks, &self.epi.cw_row);
        let (h_rows, j_cols, nj) = (self.epi.acc.h_rows, self.epi.acc.j_cols, bn / 8);
        format!(
            r#"#pragma unroll
          for (int c = 0; c < {m_chunks}; ++c) {{
#pragma unroll
            for (int h = 0; h < 2; ++h) {{
              const int row = tm * {bm}{cw_row} + c * 64 + frag_row + {h_rows} * h;
              if (row >= M) continue;
              float* const wr = w + (long long)row * ldw + col0;
#pragma unroll
              for (int j = 0; j < {nj}; ++j) {{
                const int v = 4 * j + 2 * h;
                if ({j_cols} * j < cols_left) {{ {body} }}
              }}
            }}
          }}
"#
        )
    }

    /// The code: arrival, then either this slice's sums stored (and the tile left) or the others' added.
    pub fn code(&self) -> String {
        let splits = self.splits;
        let (bn, j_cols) = (self.epi.tile.1, self.epi.acc.j_cols);
        format!(
            r#"      {{   // split-K summed here: slice tb of {splits}; this warp's rows of the tile
        const unsigned lane = tid % 32u;
        const unsigned slot = (((unsigned)tm * (unsigned)tiles_n + (unsigned)tn) * {owners}u + (unsigned)({owner})) * 4u + (tid % 128u) / 32u;
        const int ldw = (N + 3) / 4 * 4;   // split_sum::workspace_elems's rows
        const long long wstride = (long long)M * ldw;
        unsigned order = 0u;
        if (lane == 0u) order = atomicAdd(&SKF[2u * slot], 1u);
        order = __shfl_sync(0xffffffffu, order, 0);
        const int frag_row = {fr}, frag_col = {fc};
        const int col0 = tn * {bn} + frag_col, cols_left = N - col0;
        if (order + 1u < {splits}u) {{   // not the last: store this slice's sums, count them stored
          float* const w = W + (long long)tb * wstride;
          {store}          __syncwarp();
          if (lane == 0u) {{
            __threadfence();
            atomicAdd(&SKF[2u * slot + 1u], 1u);
          }}
          continue;
        }}
        if (lane == 0u) {{   // the last: the others arrived; wait for their sums, zero the counters
          while (ld_acquire_u32(&SKF[2u * slot + 1u]) + 1u < {splits}u) __nanosleep(32);
          SKF[2u * slot] = 0u;
          SKF[2u * slot + 1u] = 0u;
        }}
        __syncwarp();
#pragma unroll 1
        for (int sl = 0; sl < {splits}; ++sl) {{
          if (sl == tb) continue;
          float* const w = W + (long long)sl * wstride;
          {add}        }}
      }}
"#,
            owners = self.owners,
            owner = self.owner,
            fr = self.epi.acc.fragment.row,
            fc = self.epi.acc.fragment.col,
            store = self.pairs(&format!(
                "*(float2*)(wr + {j_cols} * j) = make_float2(acc[c][v], acc[c][v + 1]);"
            )),
            add = self.pairs(&format!(
                "const float2 p = __ldcg((const float2*)(wr + {j_cols} * j)); acc[c][v] += p.x; acc[c][v + 1] += p.y;"
            )),
        )
    }
}
