//! Stream-K scheduling for a persistent warp-specialized GEMM (data-parallel + stream-K, as CUTLASS's
//! hybrid): a persistent grid of 132 CTAs over 512 tiles runs 4 rounds, the last one 88 % full; here
//! each CTA computes the same number of whole tiles for all but the last one or two waves' worth, then
//! an equal share of the remaining tiles' k-blocks, which starts and ends anywhere in a tile. A share is
//! then between one and two tiles long, so a tile is cut at most once: its first k-blocks end one CTA's
//! share, its last k-blocks begin the next CTA's. Every CTA computes its whole tiles first, then the
//! first k-blocks of the tile cut at its share's end, whose partial sums it stores in a global workspace
//! (raising a flag), then the last k-blocks of the tile cut at its share's start, to which it adds the
//! previous CTA's sums before the epilogue. A CTA waits only for a lower one's work, done before that
//! one waits: no deadlock whatever the order in which CTAs find SMs. The whole tiles come first and keep
//! the tiles in flight adjacent and in step (L2 reuse, as the persistent grid's). In 2-CTA clusters the
//! clusters are the schedule's units: both CTAs of a cluster run the same segments of the cluster's
//! tiles (each its own row), so the B tile they multicast is the one both need.
//!
//! The workspace (`SK`, f32): [`FLAG_SLOTS`] u32 flags, then `bm x bn` partial sums per CTA. The flags
//! are zero before a launch and after it (the CTA that consumes a flag clears it), so one zeroed
//! workspace serves every launch on a stream; a flag sits at the same place for every tile shape.
//!
//! ```
//! use cute_gpu::piece::stream_k;
//! let range = stream_k::share(132, 1);
//! assert!(range.contains("const int ctas = min(min((int)gridDim.x, 132), tiles);"));
//! assert!(stream_k::segment_loop("").contains("t = sk_first + g0 / ktiles, kb0 = g0 % ktiles;"));
//! assert_eq!(stream_k::workspace_bytes(132, 128, 256), (1024 + 132 * 128 * 256) * 4);
//! ```

use crate::arch::sync::named_barrier_sync;

/// u32 flags at the start of the workspace (one per CTA and consumer warp group).
pub const FLAG_SLOTS: i64 = 1024;

/// Bytes of the workspace of `ctas` CTAs with `bm x bn` tiles: the flags, then one tile of f32 partial
/// sums per CTA.
///
/// ```
/// assert_eq!(cute_gpu::piece::stream_k::workspace_bytes(2, 64, 16), (1024 + 2 * 64 * 16) * 4);
/// ```
pub fn workspace_bytes(ctas: i64, bm: i64, bn: i64) -> i64 {
    (FLAG_SLOTS + ctas * bm * bn) * 4
}

/// The device functions: release a flag, and wait for one (acquire) and clear it.
///
/// ```
/// let f = cute_gpu::piece::stream_k::DEVICE_FNS;
/// assert!(f.contains("st.release.gpu.global.u32") && f.contains("ld.acquire.gpu.global.u32"));
/// ```
pub const DEVICE_FNS: &str = r#"
// stream-K flags: the partial sums are stored before the release; read after the acquire
__device__ __forceinline__ void sk_raise(u32* flag) {
  asm volatile("st.release.gpu.global.u32 [%0], 1;" :: "l"(flag) : "memory");
}
__device__ __forceinline__ void sk_take(u32* flag) {
  u32 v;
  do { asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory"); } while (v == 0u);
  *flag = 0u;   // zero again for the next launch
}
"#;

/// This CTA's work, for a schedule planned for `slots` CTAs (the workspace's) in clusters of `cluster`
/// (1: none): the schedule's units are the clusters, `cta` the cluster's index (every CTA of a cluster
/// runs the same segments, each its own tile of the cluster tile, so that the B tiles it multicasts are
/// the same). `ctas` is the grid's units, at most `slots / cluster` and at most `tiles` (of the
/// clusters); unit `cta` computes `dp` whole tiles (`cta`, `cta + ctas`, ...: all but
/// the last one or two waves' worth, data-parallel as a persistent grid) and its share `[g0, g1)` of the
/// k-blocks of the rest, tiles `[sk_first, tiles)`: between one and two tiles per CTA, so no tile is cut
/// twice (`2 ctas ktiles` must fit in 31 bits: [`max_k_blocks`]). `[ga, gh)`: the share's whole tiles (a tile cut at `g0` when `g0 < ga`, at `g1` when
/// `gh < g1`). CTAs past `ctas` get nothing. Needs `cta`, `tiles` and `ktiles` in scope.
///
/// ```
/// let s = cute_gpu::piece::stream_k::share(114, 1);
/// assert!(s.contains("const int dp = cta >= ctas ? 0 : rest == 0 ? waves : waves - 1,"));
/// assert!(s.contains("const int ga = (g0 + ktiles - 1) / ktiles * ktiles, gh = g1 / ktiles * ktiles;"));
/// assert!(cute_gpu::piece::stream_k::share(132, 2).contains("ctas = min(min((int)gridDim.x / 2, 66), tiles);"));
/// ```
pub fn share(slots: i64, cluster: i64) -> String {
    let grid = match cluster {
        1 => "(int)gridDim.x".to_string(),
        n => format!("(int)gridDim.x / {n}"),
    };
    [
        "// stream-K: `dp` whole tiles per CTA (cluster), and CTA (cluster) `cta` of `ctas` computes k-block",
        "// iterations [g0, g1) of the remaining tiles [sk_first, tiles) (between one and two per CTA)",
        &format!(
            "const int ctas = min(min({grid}, {}), tiles);",
            slots / cluster.max(1)
        ),
        "const int waves = tiles / ctas, rest = tiles % ctas;",
        "const int dp = cta >= ctas ? 0 : rest == 0 ? waves : waves - 1,",
        "          sk_first = (waves - (rest != 0)) * ctas;",
        "// 32-bit: at most 2 ctas x ktiles iterations (the plan checks); the first `extra` CTAs take one more",
        "const int iters = (tiles - sk_first) * ktiles, per = iters / ctas, extra = iters % ctas;",
        "const int g0 = cta < ctas ? cta * per + min(cta, extra) : 0, g1 = cta < ctas ? g0 + per + (cta < extra) : 0;",
        "const int ga = (g0 + ktiles - 1) / ktiles * ktiles, gh = g1 / ktiles * ktiles;",
    ]
    .map(|l| format!("  {l}\n"))
    .concat()
}

/// The most k-blocks per tile a stream-K schedule for `slots` CTAs takes (its iteration counts are
/// 32-bit).
///
/// ```
/// assert_eq!(cute_gpu::piece::stream_k::max_k_blocks(132), 8_134_407);
/// ```
pub fn max_k_blocks(slots: i64) -> i64 {
    (i32::MAX as i64) / (2 * slots.max(1))
}

/// The loop over the CTA's work, opened: each turn is tile `t`'s k-blocks `[kb0, kb1)`. The whole tiles
/// first (the `dp` ones and the share's), all CTAs in step over the same k-blocks as a persistent grid
/// is (so that their loads of A and B meet in L2: run 98 measured the cut tiles first at 0.63-0.90 of
/// whole tiles, the CTAs' k-blocks out of step through the long mainloops); then the first k-blocks of
/// the tile cut at the share's end (whose sums the next CTA waits for), then the last k-blocks of the
/// tile cut at its start (waiting for the previous CTA's first ones). A CTA waits only for a lower one's
/// work done before that one waits: no deadlock whatever the order in which CTAs find SMs, and the wait
/// is short, every CTA reaching its cut tiles at the end. `indent`: the loop body's.
///
/// ```
/// let l = cute_gpu::piece::stream_k::segment_loop("  ");
/// assert!(l.starts_with("for (int i = 0, phase = 0; phase < 3;) {\n  int t, kb0 = 0, kb1 = ktiles;"));
/// ```
pub fn segment_loop(indent: &str) -> String {
    [
        "int t, kb0 = 0, kb1 = ktiles;",
        "if (phase == 0) {   // whole tiles: the dp ones, then the share's",
        "  if (i < dp) t = cta + i * ctas;",
        "  else if (ga + (i - dp) * ktiles < gh) t = sk_first + ga / ktiles + (i - dp);",
        "  else { phase = 1; continue; }",
        "  ++i;",
        "} else if (phase == 1) {   // the first k-blocks of the tile cut at the share's end",
        "  phase = 2;",
        "  if (gh == g1) continue;",
        "  t = sk_first + gh / ktiles, kb1 = g1 - gh;",
        "} else {   // the last k-blocks of the tile cut at the share's start",
        "  phase = 3;",
        "  if (g0 == ga) continue;",
        "  t = sk_first + g0 / ktiles, kb0 = g0 % ktiles;",
        "}",
    ]
    .iter()
    .fold(
        "for (int i = 0, phase = 0; phase < 3;) {\n".to_string(),
        |acc, l| acc + indent + l + "\n",
    )
}

/// What a consumer warp group (`cw` of `consumers`, thread `tid`) runs after a segment's k-blocks, with
/// its sums in `acc[m_chunks][nacc]`: the first k-blocks of a cut tile are stored for the next CTA,
/// which finishes the tile, and the epilogue is skipped (`continue`); the last k-blocks of a cut tile
/// add the previous CTA's sums (waiting for its flag) before the epilogue. The workspace pointer is
/// `SK`; named barrier `5 + cw` orders the warp group's stores and loads around its one flag-holding
/// thread. In clusters of `cluster` CTAs (`cta` the cluster's index, `crank` the CTA's rank in it), a
/// CTA hands its sums to the CTA of the same rank in the next cluster.
///
/// ```
/// let f = cute_gpu::piece::stream_k::fixup(2, 1, 128, 1);
/// assert!(f.contains("if (kb1 < ktiles) {") && f.contains("sk_raise(") && f.contains("continue;"));
/// assert!(f.contains("(kb0 > 0 ? cta - 1 : cta) * 2 + cw") && f.contains("acc[c][i] += __ldcg("));
/// let clustered = cute_gpu::piece::stream_k::fixup(2, 1, 128, 2);
/// assert!(clustered.contains("((kb0 > 0 ? cta - 1 : cta) * 2 + (int)crank) * 2 + cw"));
/// ```
pub fn fixup(consumers: u32, m_chunks: i64, nacc: i64, cluster: i64) -> String {
    let per_group = m_chunks * nacc * 128;
    let sync = named_barrier_sync("5 + cw", 128);
    let unit = "(kb0 > 0 ? cta - 1 : cta)";
    let cta = match cluster {
        1 => unit.to_string(),
        n => format!("({unit} * {n} + (int)crank)"),
    };
    format!(
        r#"      if (kb0 > 0 || kb1 < ktiles) {{   // stream-K: a tile cut between this CTA and a neighbour
        u32* const sk_flags = (u32*)SK;
        const int slot = {cta} * {consumers} + cw;
        float* const part = SK + {flags} + (long long)slot * {per_group} + tid;
        if (kb1 < ktiles) {{   // its first k-blocks: the sums for CTA cta + 1, which finishes it
#pragma unroll
          for (int c = 0; c < {m_chunks}; ++c)
#pragma unroll
            for (int i = 0; i < {nacc}; ++i) __stcg(part + (c * {nacc} + i) * 128, acc[c][i]);
          {sync}
          if (tid == 0) sk_raise(sk_flags + slot);
          continue;
        }}
        // its last k-blocks: add CTA cta - 1's sums of the first ones
        if (tid == 0) sk_take(sk_flags + slot);
        {sync}
#pragma unroll
        for (int c = 0; c < {m_chunks}; ++c)
#pragma unroll
          for (int i = 0; i < {nacc}; ++i) acc[c][i] += __ldcg(part + (c * {nacc} + i) * 128);
      }}
"#,
        flags = FLAG_SLOTS,
    )
}
