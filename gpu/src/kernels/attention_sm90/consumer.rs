//! The consumer warp groups: `S = Q·Kᵀ`, the mask and the online softmax, `O += P·V`, the key-block
//! loops (serial, overlapped, ping-pong), the persistent tile loop and the epilogue.

use super::*;

/// Issues `S = Q·Kᵀ` of the consumer's 64 rows and stage `s`'s keys once K has landed: d/16 wgmmas
/// (descriptors advanced by the stage layouts' offsets: per k16 within a 64-column chunk, per chunk),
/// one group, not waited for.
pub(super) fn issue_scores(cfg: &Sm90AttentionConfig, ops: &Operands, narrow: bool) -> String {
    let (bn, narrow) = (cfg.block_n, narrow && cfg.narrow_tail > 0);
    // a narrow S accumulates into zeroed accumulators (with scale-d = 0 ptxas serializes it: C7511)
    let mut c = if cfg.s_scale_d0 && !narrow {
        String::new() // the first wgmma overwrites S
    } else {
        format!(
            "#pragma unroll\n      for (int i = 0; i < {}; ++i) sc[i] = 0.f;\n",
            bn / 2
        )
    };
    c += &format!(
        "      mbar_wait(k_full + 8 * s, phase);\n      fence_acc(sc);\n      {}\n",
        wgmma::FENCE
    );
    c += &if narrow {
        let t = cfg.narrow_tail;
        let first = format!("*reinterpret_cast<float (*)[{}]>(sc)", t / 2);
        "      // the tile's last keys: a narrow S into the first accumulators (the rest masked)\n"
            .to_string()
            + &scores_wgmmas(cfg, ops, t, &first, false)
    } else {
        scores_wgmmas(cfg, ops, bn, "sc", cfg.s_scale_d0)
    };
    c + &format!("      {}\n", wgmma::COMMIT)
}

/// `nb_full`, the tile's key blocks but a narrow last one ([`Sm90AttentionConfig::narrow_tail`]; with
/// the overlap, block 0 is never narrow): the loops run blocks below it full, then the last one narrow,
/// each in a copy of its own, so that no branch joins with wgmmas in flight (where ptxas fences them).
/// Without a narrow tail, the loops run to `NB` (no `nb_full`).
pub(super) fn full_blocks(cfg: &Sm90AttentionConfig) -> (String, &'static str) {
    match cfg.narrow_tail {
        0 => (String::new(), "NB"),
        t => (
            format!(
                "    const int nb_full = NB - (NB > {} && n_end - (NB - 1) * {} <= {t} ? 1 : 0);   // a narrow last block: its own copy\n",
                if cfg.overlap { 1 } else { 0 },
                cfg.block_n
            ),
            "nb_full",
        ),
    }
}

/// The `d/16` wgmmas `S = Q·Kᵀ` of `n` keys into the accumulators `acc`, the first with scale-d = 0
/// (`overwrite`) or all accumulating.
pub(super) fn scores_wgmmas(
    cfg: &Sm90AttentionConfig,
    ops: &Operands,
    n: i64,
    acc: &str,
    overwrite: bool,
) -> String {
    let steps = CHUNK / ops.q.mma_k;
    let mut c = String::new();
    for ks in 0..cfg.head_dim / 16 {
        let (ch, k) = (ks / steps, ks % steps);
        let zero = if overwrite && ks == 0 { "_zero" } else { "" };
        c += &format!(
            "      wgmma_m64n{n}k16{zero}({acc}, smem_desc_k(q_s + cw * {}u + {}u), smem_desc_k(ks_ + {}u));\n",
            ops.q.mn64,
            ch * ops.chunk[0] + k * ops.q.k_step,
            ch * ops.chunk[1] + k * ops.k.k_step
        );
    }
    c
}

/// Waits until at most `pending` wgmma groups are in flight, then fences the accumulators `acc`.
pub(super) fn wait(pending: u32, acc: &str) -> String {
    format!("      {}\n      fence_acc({acc});\n", wgmma::wait(pending))
}

/// P packed into A registers `p` (the register map of [`gmma_accumulator_as_a`]).
pub(super) fn pack_p(cfg: &Sm90AttentionConfig) -> Result<String> {
    let pack = pack_fn(cfg.dtype);
    let mut c =
        "      // P = the accumulators as A fragments (atom::gmma_accumulator_as_a)\n".to_string();
    for (kk, regs) in gmma_accumulator_as_a(cfg.block_n)?.iter().enumerate() {
        for (r, [v0, v1]) in regs.iter().enumerate() {
            c += &format!("      p[{kk}][{r}] = {pack}(sc[{v0}], sc[{v1}]);\n");
        }
    }
    Ok(c)
}

/// Issues `O += P·V` over the stage `st` (V at `vs`, landed in phase `ph`): bn/16 register-A wgmmas, one
/// group, not waited for; `narrow_tail/16` of them for a narrow last block (`narrow`).
pub(super) fn issue_pv(
    cfg: &Sm90AttentionConfig,
    ops: &Operands,
    (st, ph, vs): (&str, &str, &str),
    narrow: bool,
) -> String {
    let keys = match cfg.narrow_tail {
        t if narrow && t > 0 => t,
        _ => cfg.block_n,
    };
    let mut c = format!(
        "      mbar_wait(v_full + 8 * {st}, {ph});\n      fence_acc(o);\n      {}\n",
        wgmma::FENCE
    );
    c += &pv_wgmmas(cfg, ops, vs, keys);
    c + &format!("      {}\n", wgmma::COMMIT)
}

/// The `keys/16` wgmmas `O += P·V` of the first `keys` keys of V at `vs`.
pub(super) fn pv_wgmmas(cfg: &Sm90AttentionConfig, ops: &Operands, vs: &str, keys: i64) -> String {
    let steps = ops.v_keys / ops.v.mma_k;
    let mut c = String::new();
    for kk in 0..keys / 16 {
        let (ch, k) = (kk / steps, kk % steps);
        c += &format!(
            "      wgmma_rs_m64n{}k16(o, p[{kk}], smem_desc_v({vs} + {}u));\n",
            cfg.head_dim,
            ch * ops.chunk[2] + k * ops.v.k_step
        );
    }
    c
}

/// The stage of key block `j`: ring slot, phase, first key, K and V addresses.
pub(super) fn stage(cfg: &Sm90AttentionConfig, ops: &Operands, j: &str) -> String {
    let (slot, stages) = (slot(cfg, j), cfg.stages);
    format!(
        "      const u32 s = ({slot}) % {stages}, phase = (({slot}) / {stages}) & 1;\n      const int n0 = ({j}) * {};\n      const u32 ks_ = k_s + s * {}u{unit}, vs_ = v_s + s * {}u{unit};\n      (void)ks_; (void)vs_; (void)n0;\n",
        cfg.block_n,
        ops.k_stage(),
        ops.v_stage(),
        unit = unit_offset(cfg, ops.k_bytes())
    )
}

/// The offset of this consumer's box within a stage (` + (tail ? cw * bytes : 0)` with tail tiles, else
/// nothing): in a tail tile each consumer reads its own (head, batch)'s K and V.
pub(super) fn unit_offset(cfg: &Sm90AttentionConfig, bytes: i64) -> String {
    if cfg.tails() {
        format!(" + (tail ? (u32)cw * {bytes}u : 0u)")
    } else {
        String::new()
    }
}

/// The ring index of the tile's key block `j`: `j`, or `it0 + j` when persistent (the ring runs on across
/// tiles).
pub(super) fn slot(cfg: &Sm90AttentionConfig, j: &str) -> String {
    if cfg.persistent {
        format!("it0 + {j}")
    } else {
        j.to_string()
    }
}

/// `Q` read by this consumer for the tile (persistent: the producer may load the next one), when `when`.
/// With O staged in Q's shared memory, Q is released after the epilogue instead ([`epilogue`]).
pub(super) fn release_q(cfg: &Sm90AttentionConfig, ops: &Operands, when: &str) -> String {
    if cfg.persistent && !ops.o_in_q(cfg) {
        format!(
            "      if (({when}) && tid == 0) mbar_arrive(q_empty);   // Q read: the next tile's may land\n"
        )
    } else {
        String::new()
    }
}

/// The mask of block `n0` where it is needed (the sequence end, the causal diagonal of this consumer's rows).
pub(super) fn mask(cfg: &Sm90AttentionConfig, f: &Fragment) -> Result<String> {
    let bn = cfg.block_n;
    let needs = if cfg.causal {
        format!("n0 + {bn} > sk || n0 + {} > crow0 + sk - sq", bn - 1)
    } else {
        format!("n0 + {bn} > sk")
    };
    let limit = |row: &str| key_limit(cfg.causal, row);
    let mask = ScoreMask {
        fragment: f,
        atoms: (1, bn / 8),
        atom: (WG_ROWS, 8),
        index: gmma_index,
    };
    Ok(format!(
        "      if ({needs}) {{\n{}      }}\n",
        mask.emit("sc", "crow0", "n0", &limit)?
    ))
}

/// The consumer's arrival on the empty barrier of K or V (`which`) of stage `st`: that slot is read.
pub(super) fn release(which: &str, st: &str) -> String {
    format!(
        "      if (tid == 0) mbar_arrive({which}_empty + 8 * {st});   // this {which} slot is read\n"
    )
}

/// Powers of two a row max may grow by before [`Sm90AttentionConfig::lazy_rescale`] moves it (FA4's 8).
pub(super) const LAZY_LOG2: f64 = 8.0;

/// The online softmax of the key-block loops, with the variant's lazy rescaling and exponential offload
/// (the serial loop's `update` rescales O at once whatever the laziness).
pub(super) fn key_block_softmax(cfg: &Sm90AttentionConfig, f: &Fragment) -> Result<OnlineSoftmax> {
    Ok(OnlineSoftmax::new(f, 1, gmma_index)?
        .lazy(cfg.lazy_rescale.then_some(LAZY_LOG2))
        .with_poly_exp2(cfg.poly_exp2_every))
}

/// One block at a time: S, wait, mask, softmax (O rescaled), P, P·V, wait, release.
pub(super) fn serial_loop(
    cfg: &Sm90AttentionConfig,
    ops: &Operands,
    f: &Fragment,
) -> Result<String> {
    let softmax = key_block_softmax(cfg, f)?;
    let body = |narrow: bool| -> Result<String> {
        let mut c = stage(cfg, ops, "j");
        c += &issue_scores(cfg, ops, narrow);
        c += &wait(0, "sc");
        c += &release("k", "s");
        c += &mask(cfg, f)?;
        c += &softmax.update("sc", cfg.block_n / 8, "o", cfg.head_dim / 8, "scale_log2");
        c += &pack_p(cfg)?;
        c += &issue_pv(cfg, ops, ("s", "phase", "vs_"), narrow);
        c += &wait(0, "o");
        Ok(c + &release("v", "s"))
    };
    block_loop(cfg, 0, body)
}

/// The loop over key blocks `first..NB` with `body(narrow)` for block `j`: the full blocks, then the
/// narrow last one in a copy of its own ([`full_blocks`]).
pub(super) fn block_loop(
    cfg: &Sm90AttentionConfig,
    first: i64,
    body: impl Fn(bool) -> Result<String>,
) -> Result<String> {
    let (nb_full, end) = full_blocks(cfg);
    let mut c = nb_full + &format!("    for (int j = {first}; j < {end}; ++j) {{\n");
    c += &body(false)?;
    c += "    }\n";
    if cfg.narrow_tail > 0 {
        c += "    if (nb_full < NB) {   // the narrow last block\n      const int j = NB - 1;\n";
        c += &body(true)?;
        c += "    }\n";
    }
    Ok(c)
}

/// Intra-warp-group overlap (FlashAttention 3): block 0's S and softmax; then per block j, S(j) issued,
/// P(j-1)·V(j-1) issued, S(j) waited for, its mask and softmax while P·V runs, P·V waited for, stage
/// j-1 released, O rescaled, P(j) packed; the last P·V at the end. With
/// [`Sm90AttentionConfig::rescale_before_pv`], O is rescaled after each S issue instead (by the
/// factors of the block before, ahead of its P·V).
pub(super) fn overlapped_loop(
    cfg: &Sm90AttentionConfig,
    ops: &Operands,
    f: &Fragment,
) -> Result<String> {
    let softmax = key_block_softmax(cfg, f)?;
    let (s_n, o_n) = (cfg.block_n / 8, cfg.head_dim / 8);
    let mut c = softmax.declare_corr();
    c += "    if (NB > 0) {  // block 0: S, softmax, P\n";
    c += &stage(cfg, ops, "0");
    let (before, after) = turn(cfg, "0");
    c += &before;
    c += &issue_scores(cfg, ops, false);
    c += &after;
    c += &wait(0, "sc");
    c += &release("k", "s");
    c += &release_q(cfg, ops, "NB == 1");
    c += &mask(cfg, f)?;
    c += &softmax.update_scores("sc", s_n, "scale_log2");
    c += &pack_p(cfg)?;
    c += "    }\n";
    // block j: S(j) with P(j-1)·V(j-1) (never narrow: j-1 < NB-1), S(j)'s softmax under P·V
    let body = |narrow: bool| -> Result<String> {
        let mut c = stage(cfg, ops, "j");
        let (prev, stages) = (slot(cfg, "j - 1"), cfg.stages);
        c += &format!(
            "      const u32 sp = ({prev}) % {stages}, php = (({prev}) / {stages}) & 1, vsp = v_s + sp * {}u{};\n",
            ops.v_stage(),
            unit_offset(cfg, ops.v_bytes())
        );
        let (before, after) = turn(cfg, "j");
        c += &before;
        c += &issue_scores(cfg, ops, narrow);
        if cfg.rescale_before_pv {
            c += &softmax.rescale("o", o_n); // by block j-1's factors, while S(j) runs
        }
        c += &issue_pv(cfg, ops, ("sp", "php", "vsp"), false);
        c += &after;
        c += &wait(1, "sc");
        c += &release("k", "s");
        c += &release_q(cfg, ops, "j == NB - 1");
        c += &mask(cfg, f)?;
        c += &softmax.update_scores("sc", s_n, "scale_log2");
        c += &wait(0, "o");
        c += &release("v", "sp");
        if !cfg.rescale_before_pv {
            c += &softmax.rescale("o", o_n);
        }
        Ok(c + &pack_p(cfg)?)
    };
    c += &block_loop(cfg, 1, body)?;
    // the last block's P·V, narrow or not, each waited for in its own branch
    let last_pv = |narrow: bool| {
        let mut c = String::new();
        if cfg.rescale_before_pv {
            c += &softmax.rescale("o", o_n);
        }
        c += &issue_pv(cfg, ops, ("s", "phase", "vs_"), narrow);
        c += &turn(cfg, "NB").1;
        c + &wait(0, "o")
    };
    c += "    if (NB > 0) {  // the last block's P·V\n";
    c += &stage(cfg, ops, "NB - 1");
    c += &turn(cfg, "NB").0;
    c += &if cfg.narrow_tail > 0 {
        format!(
            "      if (nb_full < NB) {{\n{}      }} else {{\n{}      }}\n",
            last_pv(true),
            last_pv(false)
        )
    } else {
        last_pv(false)
    };
    c += &release("v", "s");
    Ok(c + "    }\n")
}

/// Ping-pong: the turns of issuing wgmmas, phase `k` of `NB + 1` (block 0's S; S(j) with P·V(j-1); the
/// last P·V), in a ring of the consumers. Consumer `c` waits on named barrier `1 + c` (consumer 0 except
/// in phase 0) and hands over on that of consumer `(c + 1) % consumers` after each phase, the last
/// consumer except after its last, so the arrivals and waits of each barrier pair up (256 threads: the
/// warp group handing over and the one waiting).
///
/// Persistent, the phases run on across the tiles (`g` before this tile's): consumer 0 waits except in
/// the very first, all hand over after every phase, and consumer 0 takes the last consumer's last
/// hand-back after its tile loop ([`persistent_consumer`]).
pub(super) fn turn(cfg: &Sm90AttentionConfig, k: &str) -> (String, String) {
    if !cfg.pingpong {
        return (String::new(), String::new());
    }
    // 2 consumers: 1 <-> 2; 3: 1 -> 2 -> 3 -> 1 (each consumer waits on its own)
    let (first, last, mine, next, whose) = if cfg.consumers == 2 {
        (
            "cw == 1",
            "cw == 0",
            "cw == 0 ? 1 : 2",
            "cw == 0 ? 2 : 1",
            "other",
        )
    } else {
        (
            "cw != 0",
            "cw != 2",
            "1 + cw",
            "cw == 2 ? 1 : 2 + cw",
            "next",
        )
    };
    // persistent: phases counted from the CTA's first tile, every phase handed over
    let (phase, hand) = if cfg.persistent {
        (format!("g + ({k})"), String::new())
    } else {
        (format!("({k})"), format!("if ({last} || ({k}) < NB) "))
    };
    (
        format!(
            "      if ({first} || {phase} > 0) {}   // ping-pong: my turn to issue\n",
            sync::named_barrier_sync(mine, 256)
        ),
        format!(
            "      {hand}{}   // the {whose} consumer's turn\n",
            sync::named_barrier_arrive(next, 256)
        ),
    )
}

/// The consumers' key-block loop and the final `1/l`.
pub(super) fn main_loop(cfg: &Sm90AttentionConfig, ops: &Operands, f: &Fragment) -> Result<String> {
    let (bn, d) = (cfg.block_n, cfg.head_dim);
    let softmax = OnlineSoftmax::new(f, 1, gmma_index)?;
    let mut c = format!(
        "    float o[{}];\n#pragma unroll\n    for (int i = 0; i < {}; ++i) o[i] = 0.f;\n    float sc[{}];\n    u32 p[{}][4];\n",
        d / 2,
        d / 2,
        bn / 2,
        bn / 16
    );
    c += &softmax.declare();
    c += match (cfg.persistent, cfg.dynamic()) {
        (true, _) => "    mbar_wait(q_bar, tcount & 1);\n",
        (false, _) => "    mbar_wait(q_bar, 0);\n",
    };
    c += &release_q(cfg, ops, "NB == 0");
    c += &if cfg.overlap {
        overlapped_loop(cfg, ops, f)?
    } else {
        serial_loop(cfg, ops, f)?
    };
    c += &softmax.finalize("o", d / 8, "scale_log2");
    Ok(c)
}

/// The consumer's first query row `crow0` (and, in a tail tile, its own (head, batch) pair: a consumer
/// past the last pair gets no rows, `crow0 = sq`).
pub(super) fn consumer_rows(cfg: &Sm90AttentionConfig) -> String {
    if cfg.tails() {
        format!(
            "    if (tail) {{ const int u = min(hb + cw, hbs - 1); h = u % heads; b = u / heads; }}   // this consumer's pair\n    const int crow0 = tail ? (hb + cw < hbs ? m0 : sq) : m0 + cw * {WG_ROWS};   // its first query row\n"
        )
    } else {
        format!("    const int crow0 = m0 + cw * {WG_ROWS};   // this consumer's first query row\n")
    }
}

/// A persistent consumer: its tiles (those of the producer, skipped alike), each with its key-block
/// loop and epilogue; the ring index, the tiles and the ping-pong phases run on across them.
pub(super) fn persistent_consumer(
    cfg: &Sm90AttentionConfig,
    ops: &Operands,
    f: &Fragment,
) -> Result<String> {
    let mut c = format!(
        "    int it0 = 0, tcount = 0, g = 0;   // K/V blocks, tiles, ping-pong phases so far\n    {}",
        if cfg.dynamic() {
            "int fetched = 0;   // tiles read from the mailbox\n    for (int tile = blockIdx.x; tile < tiles; ) {   // the first tile, then the producer's\n"
        } else {
            tile_loop(cfg)
        }
    );
    if cfg.dynamic() {
        // a skipped tile (varlen) fetches the next one at once
        c += &coords(
            cfg,
            &format!("{{\n{}    continue;\n    }}", fetch_next_tile(cfg)),
        );
    } else {
        c += &coords(cfg, "continue");
    }
    c += &consumer_rows(cfg);
    c += &main_loop(cfg, ops, f)?;
    if cfg.dynamic() {
        c += &fetch_next_tile(cfg);
    }
    c += &epilogue(cfg, ops, f)?;
    c += "    it0 += NB; ++tcount; g += NB > 0 ? NB + 1 : 0;\n    }\n";
    if ops.o_stage > 0 {
        c += &format!(
            "    if (tid == 0) {}   // the last O store has read its boxes\n",
            tma::store_wait_read(0)
        );
    }
    if cfg.pingpong {
        c += &format!(
            "    if (cw == 0 && g > 0) {}   // consumer {}'s last hand-back\n",
            sync::named_barrier_sync("1", 256),
            cfg.consumers - 1
        );
    }
    Ok(c)
}

/// O (through shared memory and TMA, [`store_o_staged`], or from the registers, [`store_o_direct`]) and
/// LSE (one lane per row), rows past the sequence not stored.
pub(super) fn epilogue(cfg: &Sm90AttentionConfig, ops: &Operands, f: &Fragment) -> Result<String> {
    let sm = OnlineSoftmax::new(f, 1, gmma_index)?;
    let row0 = format!("crow0 + {}", f.row);
    let lse_row = if cfg.varlen { "(q_row0 + row)" } else { "row" };
    let mut c = if cfg.stages_o() {
        store_o_staged(cfg, ops, f)?
    } else {
        store_o_direct(cfg, f)?
    };
    c += &format!(
        "    if (LSE != nullptr && {} == 0) {{  // one lane per row\n",
        f.col
    );
    for (r, dr) in sm.row_offsets.iter().enumerate() {
        c += &format!(
            "      {{ const int row = {row0} + {dr}; if (row < sq) LSE[(long long)b * lse_b + (long long)h * lse_h + (long long){lse_row} * lse_s] = sm_lse[0][{r}]; }}\n"
        );
    }
    c += "    }\n";
    Ok(c)
}

/// O through this consumer's 64 rows of Q's shared memory (`d / 64` boxes of 64 rows x 128 bytes, the
/// staging boxes of [`Staging`]: the same 128-byte swizzled K-major atom as Q's TMA boxes), TMA-stored
/// by one thread; rows past the sequence are clipped by the tensor map. Persistent, Q is released once
/// the store has read it.
pub(super) fn store_o_staged(
    cfg: &Sm90AttentionConfig,
    ops: &Operands,
    f: &Fragment,
) -> Result<String> {
    let staging = Staging::new(cfg.dtype)?;
    if ops.q.mn64 != WG_ROWS * 128 || staging.cols != CHUNK {
        return config(
            "attention_sm90",
            format!(
                "staging {}: Q's 64-row blocks ({} bytes) are not (64, {CHUNK}) boxes of 128-byte rows",
                staging.layout, ops.q.mn64
            ),
        );
    }
    let st = StagedStore {
        fragment: f,
        staging: &staging,
        n: cfg.head_dim,
        pack: pack_fn(cfg.dtype),
        barrier: cfg.epilogue_barrier(),
    };
    // Q's smem: this consumer's 64 rows of each chunk; own boxes: the consumer's d/64 boxes in a row
    let (o_st, cq) = if ops.o_in_q(cfg) {
        (
            format!(
                "q_s + cw * {}u;   // this consumer's rows of Q (read for the last time by the last S)",
                ops.q.mn64
            ),
            ops.chunk[0],
        )
    } else {
        (
            format!(
                "o_stg + cw * {}u;   // this consumer's staging boxes",
                ops.o_stage / cfg.consumers
            ),
            ops.q.mn64,
        )
    };
    let mut c =
        format!("    {{  // O -> staging boxes in smem -> TMA\n      const u32 o_st = {o_st}\n");
    if ops.o_stage > 0 {
        // the last tile's store has read the boxes: tid 0 waits, the warp group waits for tid 0
        c += &format!(
            "      if (tid == 0) {}   // the last tile's O\n      {}\n",
            tma::store_wait_read(0),
            sync::named_barrier_sync(&cfg.epilogue_barrier(), 128)
        );
    }
    c += &st.write(&|j, v| gmma_index("o", "0", j, v), &|q| {
        format!("o_st + {}u", q * cq)
    })?;
    let tma_store = |q: i64| {
        format!(
            "tma_store_4d(&tmO, o_st + {}u, {}, crow0, h, b);",
            q * cq,
            q * CHUNK
        )
    };
    // own boxes: the TMA unit reads them under the next tile (waited for above, and at the exit)
    c += &if ops.o_stage > 0 {
        st.store_unwaited(&tma_store)
    } else {
        st.store(&tma_store)
    };
    if cfg.persistent && ops.o_in_q(cfg) {
        c += "      if (tid == 0) mbar_arrive(q_empty);   // Q (and O) read: the next tile's Q may land\n";
    }
    Ok(c + "    }\n")
}

/// O from the registers: value pairs along columns as one 32-bit store, rows past the sequence skipped.
pub(super) fn store_o_direct(cfg: &Sm90AttentionConfig, f: &Fragment) -> Result<String> {
    let values = cute_layout_core::size(&f.layout.mode(1)?)?.value;
    let pack = pack_fn(cfg.dtype);
    let row0 = format!("crow0 + {}", f.row);
    let o_row0 = if cfg.varlen {
        " + (long long)q_row0 * o_s"
    } else {
        ""
    };
    let mut c =
        format!("    unsigned short* o_g = O + (long long)b * o_b + (long long)h * o_h{o_row0};\n");
    for v in (0..values).step_by(2) {
        let [dr, dc] = f.value(v)?;
        c += &format!(
            "    {{\n      const int row = {row0} + {dr};\n      if (row < sq) {{\n#pragma unroll\n        for (int dj = 0; dj < {}; ++dj)\n          *(u32*)(o_g + (long long)row * o_s + dj * 8 + {} + {dc}) = {pack}({}, {});\n      }}\n    }}\n",
            cfg.head_dim / 8,
            f.col,
            gmma_index("o", "0", "dj", v),
            gmma_index("o", "0", "dj", v + 1)
        );
    }
    Ok(c)
}
