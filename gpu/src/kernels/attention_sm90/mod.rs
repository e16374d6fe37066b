//! Forward attention on Hopper (sm_90a), FlashAttention-3 style: `O = softmax(scale * Q·Kᵀ + mask)·V`
//! and the log-sum-exp of each row, with TMA, mbarriers and `wgmma`.
//!
//! - One CTA per (128 query rows, head, batch): a producer warp group (one thread issues the TMA loads:
//!   Q once, then K and V tiles of `block_n` keys into a 2-stage ring, K and V each with their own full
//!   and empty mbarriers, so a K slot is free again as soon as its `Q·Kᵀ` is done, before the `P·V`) and
//!   two consumer warp groups of 64 query rows each ([`crate::piece::tma_mainloop`]'s roles,
//!   `setmaxnreg` 24 / 240); or, for d = 64, three ([`Sm90AttentionConfig::consumers`]: 192 rows, 512
//!   threads, `setmaxnreg` 24 / 160).
//! - The tensor maps view Q, K, V as `(D, S, H, B)` (4-D, strides from the layouts): rows past a sequence
//!   are zero-filled by the TMA unit, never read from the next batch or head.
//! - Varlen (packed sequences, `cu_q`/`cu_k` offsets): one CTA per (query block, head, sequence), the maps
//!   span the packed `(total, H, D)` tensors (one batch) and the boxes start at the sequence's first row;
//!   key rows past the sequence (the next sequence's, or zeros past the total) are masked like any
//!   sequence end, query rows past it are computed but never stored; blocks past a shorter sequence exit.
//! - `S = Q·Kᵀ`: `wgmma m64n{block_n}k16` with both operands K-major in shared memory (the 128-byte
//!   swizzled GMMA atoms of [`crate::piece::gmma_operand`]); the online softmax
//!   ([`crate::piece::online_softmax`]) on the accumulators (`gmma_c_layout`, rows shared by lane quads),
//!   `scale * log2(e)` folded into `exp2`; masks ([`crate::piece::score_mask`]) only on the blocks that
//!   need them (the sequence end, the causal diagonal, bottom-right aligned as FlashAttention 2).
//! - `O += P·V`: P packed to f16/bf16 in registers as the A operand of a register-A wgmma
//!   (`m64n{d}k16`), the register map derived by [`gmma_accumulator_as_a`]; V from shared memory as the
//!   MN-major B operand (transposed descriptor).
//! - Causal: the key blocks past the diagonal of the CTA's last row are never loaded (tile skipping);
//!   CTAs with the longest rows are launched first.
//! - Persistent ([`Sm90AttentionConfig::persistent`]; by the plan for short non-causal sequences and
//!   every causal one): one CTA per SM loops over the tiles; Q has an empty mbarrier too, the K/V ring
//!   and the ping-pong phases run on across tiles, so the next tile's loads overlap the last `P·V` and
//!   the epilogue. The tiles go in a static order, or (causal) come from the dynamic scheduler
//!   ([`Sm90AttentionConfig::dynamic_tiles`]): the producer takes each next tile from an atomic counter
//!   and hands it to the consumers through shared memory.
//! - Epilogue: O scaled by `1/l`, written by each consumer into its 64 rows of Q's shared memory (free
//!   after the tile's last `S = Q·Kᵀ`; persistent, into staging boxes of its own where shared memory has
//!   room, so that the next tile's Q may land meanwhile, else into Q's, released after the store) as the
//!   output atom's swizzled 128-byte rows ([`crate::piece::epilogue_sm90::StagedStore`]), and TMA-stored
//!   by one thread (whole 32-byte sectors; rows past the sequence clipped by the map); with varlen (the
//!   packed tensor goes on with the next sequence), or [`Sm90AttentionConfig::tma_store_o`] off, stored
//!   by each thread from the registers (value pairs, rows past the sequence skipped). The LSE by one lane
//!   per row.
//!
//! ```
//! use cute_gpu::{kernels::attention_sm90::{generate_attention_sm90, Sm90AttentionConfig}, DType};
//! let k = generate_attention_sm90(&Sm90AttentionConfig::new(DType::F16, 64, true)).unwrap();
//! assert!(k.source.contains("setmaxnreg.inc.sync.aligned.u32 240;") && k.source.contains("mbar_expect_tx("));
//! ```

use crate::arch::convert::{PACK, pack_fn};
use crate::arch::math::{EX2, poly_ex2};
use crate::arch::memory::SMEM_ADDR;
use crate::arch::{mbarrier, sync, tma, wgmma};
use crate::atom::{Fragment, gmma_accumulator_as_a, gmma_n8_values};
use crate::dtype::{DType, Major};
use crate::error::{GpuError, Result, ceil_div, config, mul, to_u32};
use crate::kernel::{Arg, Buffer, Kernel, TensorMapArg};
use crate::kernels::attention_sm80::AttentionArgs;
use crate::piece::epilogue_sm90::{StagedStore, Staging};
use crate::piece::gmma_operand::{GmmaOperand, gmma_operand};
use crate::piece::online_softmax::{OnlineSoftmax, gmma_index};
use crate::piece::score_mask::{ScoreMask, key_limit};
use cute_layout_core::atom::gmma::gmma_c_layout;

mod config;
mod consumer;
mod launch;
mod producer;

pub use config::Sm90AttentionConfig;
use consumer::*;
use launch::*;
pub use launch::{apply, takes, takes_o};
use producer::*;

/// Query rows per consumer warp group (the wgmma M).
const WG_ROWS: i64 = 64;
/// Head-dim (or key) columns of one 128-byte swizzle row of 16-bit values: one TMA box's inner extent.
const CHUNK: i64 = 64;
/// Registers of the producer warp group after its `setmaxnreg.dec`.
const PRODUCER_REGS: u32 = 24;
/// Most stages of the K/V ring ([`Sm90AttentionConfig::stages`]).
const MAX_STAGES: i64 = 3;
/// Dynamic shared memory of one sm_90 CTA (227 KiB).
const SMEM_LIMIT: i64 = 232448;

/// The shared-memory operands: Q (`128 x d`), K (`block_n x d`) as `d/64` K-major chunks of 64 columns,
/// V (`d x block_n` MN-major, the B of P·V) as `block_n/64` chunks of 64 keys (one chunk of `block_n`
/// keys when 64 does not divide it).
struct Operands {
    q: GmmaOperand,
    k: GmmaOperand,
    v: GmmaOperand,
    /// Bytes of one chunk of Q, K, V.
    chunk: [i64; 3],
    /// Chunks of Q/K (along d) and of V (along keys).
    chunks: [i64; 2],
    /// Keys per V chunk.
    v_keys: i64,
    /// mbarriers: Q, the K and V full and empty ones per stage (and Q's empty one when persistent, the
    /// mailbox's full and read ones with the dynamic scheduler).
    barriers: i64,
    /// Stages of the K/V ring.
    stages: i64,
    /// K and V boxes per stage ([`Sm90AttentionConfig::units`]).
    units: i64,
    /// Bytes of O's own staging boxes (persistent, where they fit: the next tile's Q may land during the
    /// epilogue), or 0: O is staged in Q's shared memory, or not at all.
    o_stage: i64,
}

impl Operands {
    fn new(cfg: &Sm90AttentionConfig) -> Result<Operands> {
        let (d, bn, bm) = (cfg.head_dim, cfg.block_n, cfg.block_m());
        let q = gmma_operand(Major::K, bm, CHUNK, 16, "Q")?;
        let k = gmma_operand(Major::K, bn, CHUNK, 16, "K")?;
        let v_keys = if bn % CHUNK == 0 { CHUNK } else { bn };
        let v = gmma_operand(Major::MN, d, v_keys, 16, "V")?;
        let bytes = |rows: i64| rows * CHUNK * 2;
        let mut ops = Operands {
            chunk: [bytes(bm), bytes(bn), d * v_keys * 2],
            chunks: [d / CHUNK, bn / v_keys],
            q,
            k,
            v,
            v_keys,
            barriers: 1 + 4 * cfg.stages + i64::from(cfg.persistent) + 2 * i64::from(cfg.dynamic()),
            stages: cfg.stages,
            units: cfg.units(),
            o_stage: 0,
        };
        // persistent: O in its own staging boxes where shared memory has room, else in Q's
        let own = bm * d * 2;
        if cfg.persistent && cfg.stages_o() && ops.smem() + own <= SMEM_LIMIT {
            ops.o_stage = own;
        }
        Ok(ops)
    }
    /// Whether O is staged in Q's shared memory (Q is free only after the epilogue).
    fn o_in_q(&self, cfg: &Sm90AttentionConfig) -> bool {
        cfg.stages_o() && self.o_stage == 0
    }
    fn q_bytes(&self) -> i64 {
        self.chunk[0] * self.chunks[0]
    }
    fn k_bytes(&self) -> i64 {
        self.chunk[1] * self.chunks[0]
    }
    fn v_bytes(&self) -> i64 {
        self.chunk[2] * self.chunks[1]
    }
    /// Bytes of one stage of K (all its units' boxes).
    fn k_stage(&self) -> i64 {
        self.units * self.k_bytes()
    }
    /// Bytes of one stage of V (all its units' boxes).
    fn v_stage(&self) -> i64 {
        self.units * self.v_bytes()
    }
    /// Shared memory: 1024 bytes of alignment slack, Q, the K and V stages, O's staging boxes, the
    /// mbarriers.
    fn smem(&self) -> i64 {
        1024 + self.q_bytes()
            + self.stages * (self.k_stage() + self.v_stage())
            + self.o_stage
            + 8 * self.barriers
    }
}

/// The consumers as a whole, for the generated comments.
fn all_consumers(cfg: &Sm90AttentionConfig) -> String {
    if cfg.consumers == 2 {
        "both consumers".into()
    } else {
        format!("all {} consumers", cfg.consumers)
    }
}

fn name(cfg: &Sm90AttentionConfig) -> String {
    format!(
        "cute_attention90_{}_d{}_{}x{}{}{}",
        cfg.dtype.name(),
        cfg.head_dim,
        cfg.block_m(),
        cfg.block_n,
        if cfg.causal { "_causal" } else { "" },
        match (cfg.overlap, cfg.pingpong) {
            (false, _) => "_serial",
            (true, false) => "_nopp",
            (true, true) => "",
        }
    ) + if cfg.varlen { "_varlen" } else { "" }
        + if cfg.persistent { "_persistent" } else { "" }
        + if cfg.tma_store_o || cfg.varlen {
            ""
        } else {
            "_direct_o"
        }
        + &if cfg.stages == 2 {
            String::new()
        } else {
            format!("_{}st", cfg.stages)
        }
        + if cfg.s_scale_d0 { "_sd0" } else { "" }
        + if cfg.lazy_rescale && cfg.overlap {
            "_lz"
        } else {
            ""
        }
        + &if cfg.lpt_order() {
            format!("_lpt{}", cfg.lpt_l2_mib)
        } else {
            String::new()
        }
        + &match cfg.poly_exp2_every {
            0 => String::new(),
            n => format!("_px{n}"),
        }
        + if cfg.tails() { "_tt" } else { "" }
        + if cfg.dynamic() { "_dyn" } else { "" }
        + if cfg.rescale_before_pv && cfg.overlap {
            "_rb"
        } else {
            ""
        }
        + if cfg.prefetches_q() { "_pq" } else { "" }
        + &match cfg.narrow_tail {
            0 => String::new(),
            n => format!("_nt{n}"),
        }
        // the index other than the head dim's default
        + match (cfg.broadcast_wg, broadcasts_by_default(cfg.head_dim)) {
            (true, false) => "_wgb",
            (false, true) => "_wgp",
            _ => "",
        }
}

/// [`Sm90AttentionConfig::new`]'s warp group index for `head_dim`: broadcast from lane 0 but at d = 128
/// ([`Sm90AttentionConfig::broadcast_wg`]); kernel names mark the other choice.
fn broadcasts_by_default(head_dim: i64) -> bool {
    head_dim != 128
}

fn header(cfg: &Sm90AttentionConfig, ops: &Operands, f: &Fragment) -> Result<String> {
    let (d, bn, ty, stages) = (cfg.head_dim, cfg.block_n, cfg.dtype.name(), cfg.stages);
    let (bm, consumers) = (cfg.block_m(), cfg.consumers);
    let mut c = format!(
        "// Generated by gpu::kernels::attention_sm90. O = softmax(scale*Q*K^T + mask)*V, LSE per row; {ty} in/out, f32 accumulation.\n\
// sm_90a: CTA = {bm} query rows x (head, batch); producer warp group (TMA) + {consumers} consumer warp groups x {WG_ROWS} rows;\n\
// K/V tiles of {bn} keys in a {stages}-stage ring; mask: {}keys past Sk\n",
        if cfg.causal {
            "causal (bottom-right: key j <= i + Sk - Sq, blocks past the diagonal skipped) + "
        } else {
            ""
        }
    );
    c += &format!(
        "// S = Q*K^T: wgmma m64n{bn}k16 (Q, K K-major in smem); O += P*V: wgmma m64n{d}k16, P from registers, V MN-major\n"
    );
    for (op, n) in [
        (&ops.q, d / CHUNK),
        (&ops.k, d / CHUNK),
        (&ops.v, ops.chunks[1]),
    ] {
        c += &format!("{}\n//   x {n} chunk(s)\n", op.doc);
    }
    c += "// TMA here: rank-4 maps (D, S, H, B) of Q, K, V (strides from the layouts, box extent 1 in H, B):\n//   a box at {64*chunk (+64j for V's MN boxes), first row, head, batch}; rows past S zero-filled\n";
    c += &format!(
        "// accumulators: gmma_c_layout(n) = n/8 copies of gmma_c_layout(8) as coordinates {} (atom::gmma_n8_values)\n",
        f.layout
    );
    c += &format!(
        "// P as A: k16 block kk, A register r <- accumulator values {:?} (atom::gmma_accumulator_as_a)\n",
        gmma_accumulator_as_a(16)?[0]
    );
    c += &format!("// shared memory: {} bytes\n", ops.smem());
    if cfg.tails() {
        c += &format!(
            "// tail tiles: a stage holds {0} K and {0} V boxes, one per consumer: in a tail tile each consumer has its own (head, batch)\n",
            cfg.consumers
        );
    }
    if cfg.stages_o() {
        c += &format!(
            "// O: staged in {} (the output atom's swizzled 128-byte rows), TMA-stored (rank-4 map of O)\n",
            if ops.o_in_q(cfg) {
                "each consumer's 64 rows of Q's smem"
            } else {
                "its own boxes"
            }
        );
    }
    Ok(c)
}

fn device_fns(cfg: &Sm90AttentionConfig, ops: &Operands) -> String {
    let mut s = "typedef unsigned int u32;\ntypedef unsigned long long u64;\n".to_string();
    for f in [
        SMEM_ADDR,
        mbarrier::MBARRIER,
        tma::TMA_2D,
        tma::TMA_4D,
        PACK,
        EX2,
    ] {
        s += f;
    }
    if cfg.poly_exp2_every > 0 {
        s += &poly_ex2();
    }
    let lt = wgmma::layout_type(3);
    for (n, op) in [("smem_desc_k", &ops.k), ("smem_desc_v", &ops.v)] {
        s += &wgmma::descriptor_fn(n, op.lbo, op.sbo, lt);
    }
    let (d, bn) = (cfg.head_dim, cfg.block_n);
    let types = (cfg.dtype, cfg.dtype);
    s += &wgmma::Wgmma {
        n: bn,
        types,
        tnsp: (ops.q.tnsp, ops.k.tnsp),
        accumulate_arg: false,
    }
    .device_fns();
    if cfg.s_scale_d0 {
        s += &wgmma::Wgmma {
            n: bn,
            types,
            tnsp: (ops.q.tnsp, ops.k.tnsp),
            accumulate_arg: false,
        }
        .device_fn_zero();
    }
    if cfg.narrow_tail > 0 {
        s += &wgmma::Wgmma {
            n: cfg.narrow_tail,
            types,
            tnsp: (ops.q.tnsp, ops.k.tnsp),
            accumulate_arg: false,
        }
        .device_fn();
    }
    s += &wgmma::Wgmma {
        n: d,
        types,
        tnsp: (0, ops.v.tnsp),
        accumulate_arg: false,
    }
    .device_fns_rs();
    if d != bn {
        s += &wgmma::fence_acc_fn(d / 2);
    }
    if cfg.stages_o() {
        s += &StagedStore::device_fns();
    }
    s
}

fn signature(cfg: &Sm90AttentionConfig) -> String {
    let mut maps = vec!["tmQ", "tmK", "tmV"];
    if cfg.tails() {
        maps.push("tmQt");
    }
    if cfg.stages_o() {
        maps.push("tmO");
    }
    let mut p: Vec<String> = maps
        .iter()
        .map(|n| format!("const __grid_constant__ TmaDesc {n}"))
        .collect();
    crate::kernels::attention_sm80::push_output_params(&mut p, cfg.varlen);
    if cfg.dynamic() {
        p.push("unsigned int* __restrict__ tile_sched".into());
    }
    p.extend(["int Sq", "int Sk", "int group"].map(String::from));
    if cfg.persistent {
        p.extend(["int heads", "int batches"].map(String::from));
    }
    for n in STRIDES {
        p.push(format!("long long {n}"));
    }
    p.push("float scale_log2".into());
    p.join(",\n    ")
}

/// The strides the kernel reads (O and LSE; Q, K, V are in the tensor maps).
const STRIDES: [&str; 6] = ["o_b", "o_s", "o_h", "lse_b", "lse_h", "lse_s"];

/// Shared memory carve-up, barriers, the CTA's block and its key blocks.
fn prologue(cfg: &Sm90AttentionConfig, ops: &Operands) -> String {
    let (qb, kb, vb, ob) = (ops.q_bytes(), ops.k_stage(), ops.v_stage(), ops.o_stage);
    let (stages, consumers, bm) = (cfg.stages, cfg.consumers, cfg.block_m());
    let mut q_empty_init = if cfg.persistent {
        format!(
            "    mbar_init(q_empty, {consumers});   // {} have read Q (persistent)\n",
            all_consumers(cfg)
        )
    } else {
        String::new()
    };
    let mut q_empty_decl = if cfg.persistent {
        format!(
            "  const u32 q_empty = v_empty + {stages}u * 8u;   // Q read by {} (persistent)\n",
            all_consumers(cfg)
        )
    } else {
        String::new()
    };
    if cfg.dynamic() {
        q_empty_decl += "  const u32 tile_full = q_empty + 8u, tile_read = q_empty + 16u;   // the dynamic scheduler's mailbox\n";
        q_empty_init += &format!(
            "    mbar_init(tile_full, 1); mbar_init(tile_read, {consumers});   // next tile written; read by {}\n",
            all_consumers(cfg)
        );
    }
    let warp_group = sync::warp_group_index(cfg.broadcast_wg);
    let mut c = format!(
        r#"  extern __shared__ __align__(1024) unsigned char smem_raw[];
  const u32 q_s = (smem_u32(smem_raw) + 1023u) & ~1023u;   // 128-byte swizzle atoms repeat every 1024 B
  const u32 k_s = q_s + {qb}u, v_s = k_s + {stages}u * {kb}u;
  const u32 o_stg = v_s + {stages}u * {vb}u;   // O's staging boxes ({ob} bytes)
  const u32 q_bar = o_stg + {ob}u;    // Q landed (count 1 + tx)
  const u32 k_full = q_bar + 8u, v_full = k_full + {stages}u * 8u;   // K, V of a stage landed
  // {every} are done with a stage's K, V (count {consumers})
  const u32 k_empty = v_full + {stages}u * 8u, v_empty = k_empty + {stages}u * 8u;
{q_empty_decl}{warp_group}  if (threadIdx.x == 0) {{
    mbar_init(q_bar, 1);
{q_empty_init}    for (int s = 0; s < {stages}; ++s) {{ mbar_init(k_full + 8 * s, 1); mbar_init(v_full + 8 * s, 1); mbar_init(k_empty + 8 * s, {consumers}); mbar_init(v_empty + 8 * s, {consumers}); }}
    {}
    {} {} {}
  }}
  __syncthreads();
  {}   // global memory only once the grid before this one in the stream is done (dependent launch)
"#,
        mbarrier::INIT_FENCE,
        tma::prefetch("tmQ"),
        tma::prefetch("tmK"),
        tma::prefetch("tmV"),
        sync::GRID_DEPENDENCY_WAIT,
        every = all_consumers(cfg)
    );
    if cfg.tails() {
        c += &format!(
            "  // tail tiles: when the last query block of a (head, batch) pair has at most {WG_ROWS} rows, the last\n  // blocks of {consumers} pairs form one tile (a consumer each), after those pairs' full blocks\n  const int hbs = heads * batches, m_full = Sq / {bm};\n  const bool tails = Sq % {bm} != 0 && Sq % {bm} <= {WG_ROWS};\n  const int m_blocks = tails ? m_full : (Sq + {bm} - 1) / {bm};\n  const int tiles = tails ? hbs * m_full + (hbs + {}) / {consumers} : m_blocks * hbs;\n",
            consumers - 1
        );
    } else if cfg.persistent {
        c += &format!(
            "  const int m_blocks = (Sq + {bm} - 1) / {bm}, tiles = m_blocks * heads * batches;\n"
        );
        if cfg.lpt_order() {
            c += &lpt_section(cfg);
        }
    } else {
        c += &coords(cfg, "return");
    }
    c
}

/// The (head, batch) pairs per section of the LPT order ([`Sm90AttentionConfig::lpt_l2_mib`]): as many
/// as have K and V (`Sk` keys) in that many MiB, times the query heads sharing a K/V head
/// (FlashAttention 3's choice, with 32 MiB).
fn lpt_section(cfg: &Sm90AttentionConfig) -> String {
    let (kv_bytes, mib) = (2 * cfg.head_dim * 2, cfg.lpt_l2_mib);
    format!(
        "  // LPT order: sections of (head, batch) pairs whose K, V fit in {mib} MiB, heaviest query blocks first\n  const int hb_section = (int)min((long long)heads * batches, max(1LL, ({mib}LL << 20) / max(1LL, (long long)Sk * {kv_bytes})) * group);\n"
    )
}

/// The persistent tile loop's header: CTA `blockIdx.x` takes tiles `blockIdx.x + k·gridDim.x`, or in
/// the LPT order ([`Sm90AttentionConfig::lpt_l2_mib`]), round `r`'s tile `r·gridDim.x + i` with `i` = `blockIdx.x`
/// in even rounds and `gridDim.x - 1 - blockIdx.x` in odd ones (a snake: the CTAs that took the
/// heavier tiles of a round take the lighter ones of the next).
fn tile_loop(cfg: &Sm90AttentionConfig) -> &'static str {
    if cfg.lpt_order() {
        "for (int round = 0; ; ++round) {\n    const int tile = round * gridDim.x + ((round & 1) ? gridDim.x - 1 - blockIdx.x : blockIdx.x);\n    if (tile >= tiles) break;\n"
    } else {
        "for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {\n"
    }
}

/// The tile's (query block, head, batch), its sequence bounds and key blocks; a tile past a shorter
/// sequence (varlen) does `leave` (`return` for one CTA per tile, `continue` in a persistent tile loop).
fn coords(cfg: &Sm90AttentionConfig, leave: &str) -> String {
    let (bn, bm) = (cfg.block_n, cfg.block_m());
    let mut c = match (cfg.persistent, cfg.causal) {
        _ if cfg.tails() => tail_decode(cfg),
        (false, true) => {
            "  const int m_block = gridDim.x - 1 - blockIdx.x;  // causal: the longest rows first\n"
                .to_string()
        }
        (false, false) => "  const int m_block = blockIdx.x;\n".to_string(),
        (true, causal) => format!(
            "{}  const int m_block = {};\n",
            if cfg.lpt_order() {
                "  // section of hb_section (head, batch) pairs (the last one may be narrower), query-block major\n  const int sec = tile / (hb_section * m_blocks), rest = tile % (hb_section * m_blocks);\n  const int sec_hbs = min(hb_section, heads * batches - sec * hb_section);\n  const int m_rank = rest / sec_hbs, hb = sec * hb_section + rest % sec_hbs;\n"
            } else {
                "  const int m_rank = tile % m_blocks, hb = tile / m_blocks;\n"
            },
            if causal {
                "m_blocks - 1 - m_rank;  // causal: the longest rows first"
            } else {
                "m_rank"
            }
        ),
    };
    c += if cfg.tails() {
        "  int h = hb % heads, b = hb / heads;  // a tail tile's first pair (the units' K/V heads: u_hk)\n"
    } else if cfg.persistent {
        "  const int h = hb % heads, b = hb / heads, hk = h / group;  // GQA: group query heads share K/V head hk\n"
    } else {
        "  const int h = blockIdx.y, b = blockIdx.z, hk = h / group;  // GQA: group query heads share K/V head hk\n"
    };
    c += &if cfg.varlen {
        let why = if leave == "return" {
            "(the whole CTA leaves)"
        } else {
            "(every role skips the tile)"
        };
        format!(
            "  const int q_row0 = cu_q[b], k_row0 = cu_k[b];  // packed sequences: the first rows of sequence b\n  const int sq = cu_q[b + 1] - q_row0, sk = cu_k[b + 1] - k_row0, m0 = m_block * {bm};\n  if (m0 >= sq) {leave};  // a shorter sequence: no rows in this block {why}\n"
        )
    } else {
        format!("  const int sq = Sq, sk = Sk, m0 = m_block * {bm};\n")
    };
    c += &if cfg.causal {
        format!(
            "  // keys the block sees: j <= i + sk - sq for its last row (later key blocks are never loaded)\n  const int n_end = max(0, min(sk, min(m0 + {bm}, sq) + sk - sq));\n"
        )
    } else {
        "  const int n_end = sk;\n".to_string()
    };
    c += &format!("  const int NB = (n_end + {bn} - 1) / {bn};\n");
    c
}

/// The tile's query block and (head, batch) pair with tail tiles ([`Sm90AttentionConfig::tails`]): in
/// groups of `consumers` pairs, each pair's full blocks, then (with `tails`) one tile of the group's last
/// blocks, `hb` its first pair.
fn tail_decode(cfg: &Sm90AttentionConfig) -> String {
    let n = cfg.consumers;
    let order = if cfg.causal {
        "tail ? m_full : m_blocks - 1 - m_rank;  // causal: the longest rows first"
    } else {
        "m_rank"
    };
    format!(
        "  int m_rank, hb;\n  bool tail = false;\n  if (tails) {{\n    const int g = tile / ({n} * m_full + 1), w = tile % ({n} * m_full + 1);\n    if (w < min({n}, hbs - {n} * g) * m_full) {{ hb = {n} * g + w / m_full; m_rank = w % m_full; }}\n    else {{ hb = {n} * g; m_rank = m_full; tail = true; }}   // the group's last blocks (fewer pairs in the last group)\n  }} else {{ m_rank = tile % m_blocks; hb = tile / m_blocks; }}\n  const int m_block = {order};\n"
    )
}
/// The kernel of variant `cfg` (problem values are arguments: set them with [`apply`]).
///
/// ```
/// use cute_gpu::{kernels::attention_sm90::{generate_attention_sm90, Sm90AttentionConfig}, DType};
/// let k = generate_attention_sm90(&Sm90AttentionConfig::new(DType::BF16, 128, false)).unwrap();
/// assert!(k.source.contains("m64n128k16.f32.bf16.bf16") && k.source.contains("tma_load_4d("));
/// ```
pub fn generate_attention_sm90(cfg: &Sm90AttentionConfig) -> Result<Kernel> {
    cfg.check()?;
    let ops = Operands::new(cfg)?;
    if ops.smem() > SMEM_LIMIT {
        return config(
            "attention_sm90",
            format!(
                "d = {}, block_n = {}: {} bytes of shared memory, more than the {SMEM_LIMIT} of an sm_90 CTA",
                cfg.head_dim,
                cfg.block_n,
                ops.smem()
            ),
        );
    }
    if gmma_n8_values(cfg.block_n.max(cfg.head_dim))? != 4 {
        return config(
            "attention_sm90",
            "gmma_c_layout(8) has not 4 values per thread",
        );
    }
    let f = Fragment::new(&gmma_c_layout(8)?, WG_ROWS, "tid")?;
    f.pairs_along_columns()?;
    let name = name(cfg);
    let threads = 128 * (1 + cfg.consumers);
    let mut c = header(cfg, &ops, &f)?;
    c += &device_fns(cfg, &ops);
    c += &format!(
        "\nextern \"C\" __global__ void __launch_bounds__({threads}, 1) {name}(\n    {}) {{\n",
        signature(cfg)
    );
    c += &prologue(cfg, &ops);
    c += &producer(cfg, &ops);
    c += &format!(
        "  else {{\n    {}\n    const int cw = wg - 1;   // consumer: query rows [m0 + cw*{WG_ROWS}, +{WG_ROWS})\n",
        sync::setmaxnreg(true, cfg.consumer_regs())
    );
    c += &if cfg.persistent {
        persistent_consumer(cfg, &ops, &f)?
    } else {
        consumer_rows(cfg) + &main_loop(cfg, &ops, &f)? + &epilogue(cfg, &ops, &f)?
    };
    c += "  }\n}\n";
    let (args, buffers) = parameters(cfg, &ops);
    Ok(Kernel {
        name,
        source: c,
        grid: (1, 1, 1),
        persistent: cfg.persistent,
        cluster: 1,
        block: (threads as u32, 1, 1),
        dynamic_smem_bytes: to_u32("shared memory bytes", ops.smem())?,
        args,
        buffers,
        pointer_alignment: 16,
        dependent_launch: true,
    })
}
