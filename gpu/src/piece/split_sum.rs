//! Split-K summed in the GEMM kernel: the batches of the launch are K slices of one product, and the
//! last slice to finish a warp's rows of a tile adds the others' partial sums before the epilogue, so
//! no second kernel reads them back (CUTLASS's split-K with a separate reduction, or its "serial"
//! reduction, takes a semaphore per tile; here each warp of a consumer is its own unit, since a warp's
//! accumulators cover 16 rows of each 64-row chunk of the tile and no barrier across the warp group is
//! needed).
//!
//! Per unit (tile, row owner, warp) two counters in `SKF`: arrivals and partial sums stored. A warp takes
//! its arrival order (one atomic); all but the last store their sums in `W` at their arrival order, fence,
//! count them stored and leave the tile; the last waits until the others' sums are stored (they arrived,
//! so they are running and store without waiting on anything: no deadlock), zeroes both counters for the
//! next call, and adds the sums to its accumulators.
//!
//! The sums are stored in register order, not at their places in the output: only the kernel reads
//! them, and the thread that adds a value holds it in the same register as the thread that stored it.
//! So a warp moves 16-byte vectors, 512 contiguous bytes per instruction, with no edge predicates (rows
//! and columns past the output are summed like the others and never stored), and the loads of a batch
//! are independent of each other (the compiler issues them together; per-pair loads at the output's
//! places went out two at a time, one L2 round trip each: `gpu/logs/matmul/run156`).
//!
//! ```
//! use cute_gpu::piece::{epilogue_op::EpilogueOp, epilogue_sm90::{Accumulators, Sm90Epilogue}, split_sum::SplitSum};
//! let acc = Accumulators::new(128).unwrap();
//! let epi = Sm90Epilogue { acc: &acc, tile: (128, 128), m_chunks: 1, cw_row: " + cw * 64".into(), osz: 2, op: EpilogueOp::default() };
//! let s = SplitSum { epi: &epi, owner: "cw".into(), owners: 2, splits: 4 };
//! let c = s.code();
//! assert!(c.contains("atomicAdd(&SKF[2u * slot], 1u)") && c.contains("continue;"));
//! assert!(c.contains("__ldcg(w + (c * 16 + q) * 128)") && c.contains("float4 p[8];"));
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
/// `tb` is the slice, `tm`, `tn` the tile and `tid` the thread of the consumer warp group).
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

/// f32 elements of the workspace `W` for `splits` slices of `tile_rows` x `tile_cols` tiles of
/// `bm x bn` (rows padded to whole clusters, as [`SplitSum::counter_bytes`]): each tile's sums of all
/// but the last slice.
///
/// ```
/// // 2 x 3 tiles of 128x128 in 4 slices: 3 sums of each
/// assert_eq!(cute_gpu::piece::split_sum::workspace_elems(4, 2, 3, (128, 128)), 2 * 3 * 3 * 128 * 128);
/// ```
pub fn workspace_elems(splits: i64, tile_rows: i64, tile_cols: i64, (bm, bn): (i64, i64)) -> i64 {
    tile_rows * tile_cols * (splits - 1) * bm * bn
}

impl SplitSum<'_> {
    /// Bytes of the counters for `tile_rows` x `tile_cols` tiles (rows padded to whole clusters) with
    /// `owners` row owners of 4 warps each: two 32-bit counters per warp.
    pub fn counter_bytes(tile_rows: i64, tile_cols: i64, owners: i64) -> i64 {
        2 * 4 * tile_rows * tile_cols * owners * 4
    }

    /// The code: arrival, then either this slice's sums stored (and the tile left) or the others' added.
    pub fn code(&self) -> String {
        let (splits, m_chunks, bn) = (self.splits, self.epi.m_chunks, self.epi.tile.1);
        // float4s per thread and chunk, and the loads issued together (a divisor of them, 8 at most)
        let groups = bn / 8;
        let batch = [8, 4, 2, 1]
            .into_iter()
            .find(|b| groups % b == 0)
            .unwrap_or(1);
        format!(
            r#"      {{   // split-K summed here: slice tb of {splits}; this warp's rows of the tile
        const unsigned lane = tid % 32u;
        const unsigned unit = ((unsigned)tm * (unsigned)tiles_n + (unsigned)tn) * {owners}u + (unsigned)({owner});
        const unsigned slot = unit * 4u + (tid % 128u) / 32u;
        unsigned order = 0u;
        if (lane == 0u) order = atomicAdd(&SKF[2u * slot], 1u);
        order = __shfl_sync(0xffffffffu, order, 0);
        // the sum stored at arrival order o: float4 q of chunk c of thread tid at
        // (((first_sum + o) * {owners} + owner) * {cq} + c * {groups} + q) * 128 + tid, first_sum = tile * {others}
        const unsigned long long first_sum = (unsigned long long)((unsigned)tm * (unsigned)tiles_n + (unsigned)tn) * {others}u;
        float4* const w_at = reinterpret_cast<float4*>(W) + (unsigned long long)(tid % 128u);
        if (order + 1u < {splits}u) {{   // not the last: store this slice's sums, count them stored
          float4* const w = w_at + ((first_sum + order) * {owners}u + (unsigned)({owner})) * {cq}u * 128u;
#pragma unroll
          for (int c = 0; c < {m_chunks}; ++c)
#pragma unroll
            for (int q = 0; q < {groups}; ++q) __stcg(w + (c * {groups} + q) * 128, make_float4(acc[c][4 * q], acc[c][4 * q + 1], acc[c][4 * q + 2], acc[c][4 * q + 3]));
          __threadfence();
          __syncwarp();
          if (lane == 0u) atomicAdd(&SKF[2u * slot + 1u], 1u);
          continue;
        }}
        if (lane == 0u) {{   // the last: the others arrived; wait for their sums, zero the counters
          while (ld_acquire_u32(&SKF[2u * slot + 1u]) + 1u < {splits}u) __nanosleep(32);
          SKF[2u * slot] = 0u;
          SKF[2u * slot + 1u] = 0u;
        }}
        __syncwarp();
#pragma unroll 1
        for (unsigned o = 0u; o < {others}u; ++o) {{
          const float4* const w = w_at + ((first_sum + o) * {owners}u + (unsigned)({owner})) * {cq}u * 128u;
#pragma unroll
          for (int c = 0; c < {m_chunks}; ++c) {{
#pragma unroll
            for (int q0 = 0; q0 < {groups}; q0 += {batch}) {{
              float4 p[{batch}];
#pragma unroll
              for (int i = 0; i < {batch}; ++i) {{ const int q = q0 + i; p[i] = __ldcg(w + (c * {groups} + q) * 128); }}
#pragma unroll
              for (int i = 0; i < {batch}; ++i) {{
                const int q = q0 + i;
                acc[c][4 * q] += p[i].x; acc[c][4 * q + 1] += p[i].y; acc[c][4 * q + 2] += p[i].z; acc[c][4 * q + 3] += p[i].w;
              }}
            }}
          }}
        }}
      }}
"#,
            others = splits - 1,
            owners = self.owners,
            owner = self.owner,
            cq = m_chunks * groups,
        )
    }
}
