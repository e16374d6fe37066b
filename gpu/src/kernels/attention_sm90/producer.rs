//! The producer warp group: the TMA loads of Q, K and V (one thread), the persistent tile loop and the
//! dynamic scheduler's mailbox.

use super::*;

/// The TMA coordinates of the CTA's first query row, of key block `n0`'s first row, and of the batch:
/// the sequence's rows of the packed tensors for varlen (whose maps have one batch).
pub(super) struct Rows {
    q: &'static str,
    k: &'static str,
    batch: &'static str,
}

impl Rows {
    fn of(cfg: &Sm90AttentionConfig) -> Rows {
        if cfg.varlen {
            Rows {
                q: "q_row0 + m0",
                k: "k_row0 + n0",
                batch: "0",
            }
        } else {
            Rows {
                q: "m0",
                k: "n0",
                batch: "b",
            }
        }
    }
}

/// The producer: one thread loads Q, then for each key block waits for a free stage and loads K and V
/// (the TMA coordinates are `(d, row, head, batch)`, innermost first).
pub(super) fn producer(cfg: &Sm90AttentionConfig, ops: &Operands) -> String {
    let (bn, stages) = (cfg.block_n, cfg.stages);
    let loads = producer_kv_loads(cfg, ops);
    let (q_loads, q_prefetch) = producer_q_loads(cfg, ops);
    // with the dynamic scheduler, the next tile is published after the loads (at once if skipped)
    let publish = if cfg.dynamic() { PUBLISH_NEXT_TILE } else { "" };
    let skip = if cfg.dynamic() {
        format!("{{\n{publish}      continue;\n      }}")
    } else {
        "continue".to_string()
    };
    let (tile_loop, q_free, it, next, end) = if cfg.persistent {
        (
            format!(
                "      int it = 0, tcount = 0;   // K/V blocks and tiles loaded so far\n      {}{}",
                producer_tile_loop(cfg),
                coords(cfg, &skip)
            ),
            "      if (tcount > 0) mbar_wait(q_empty, (tcount - 1) & 1);   // the consumers have read the last Q\n",
            "it",
            ", ++it",
            format!("      ++tcount;\n{publish}      }}\n"),
        )
    } else {
        (String::new(), "", "j", "", String::new())
    };
    format!(
        r#"  if (wg == 0) {{
    // producer warp group: one thread issues the TMA loads
    {}
    if (tid == 0) {{
{tile_loop}{q_prefetch}{q_free}      mbar_expect_tx(q_bar, {}u);   // whole boxes count, out-of-bounds rows zero-filled
{q_loads}      for (int j = 0; j < NB; ++j{next}) {{
        const u32 s = {it} % {stages}, phase = ({it} / {stages}) & 1;
        const int n0 = j * {bn};
        mbar_wait(k_empty + 8 * s, phase ^ 1u);
        mbar_expect_tx(k_full + 8 * s, {});
{loads}      }}
{end}      {}   // every load issued: the next grid in the stream may launch (its own wait holds it)
    }}
  }}
"#,
        sync::setmaxnreg(false, PRODUCER_REGS),
        ops.q_bytes(),
        unit_bytes(cfg, ops.k_bytes()),
        sync::LAUNCH_DEPENDENTS
    )
}

/// The K and V loads of key block `j` into stage `s` (K's boxes, the wait for V's stage, V's boxes);
/// with tail tiles, each unit `c` loads its own K/V head and batch into box `c` of the stage.
pub(super) fn producer_kv_loads(cfg: &Sm90AttentionConfig, ops: &Operands) -> String {
    let [nd, nk] = ops.chunks;
    let [_, ck, cv] = ops.chunk;
    let Rows {
        k: kr, batch: b, ..
    } = Rows::of(cfg);
    let (hk, b) = if cfg.tails() {
        ("uhk", "ub")
    } else {
        ("hk", b)
    };
    let at = |bytes: i64| {
        if cfg.tails() {
            format!(" + c * {bytes}u")
        } else {
            String::new()
        }
    };
    let mut k_loads = String::new();
    for c in 0..nd {
        k_loads += &format!(
            "        tma_load_4d(k_s + s * {}u{} + {}u, &tmK, k_full + 8 * s, {}, {kr}, {hk}, {b});\n",
            ops.k_stage(),
            at(ops.k_bytes()),
            c * ck,
            c * CHUNK
        );
    }
    let mut v_loads = String::new();
    for c in 0..nk {
        for &(off, mn) in &ops.v.boxes {
            v_loads += &format!(
                "        tma_load_4d(v_s + s * {}u{} + {}u, &tmV, v_full + 8 * s, {mn}, {kr} + {}, {hk}, {b});\n",
                ops.v_stage(),
                at(ops.v_bytes()),
                c * cv + off,
                c * ops.v_keys
            );
        }
    }
    let mut loads = per_unit(cfg, &k_loads);
    loads += &format!(
        "        mbar_wait(v_empty + 8 * s, phase ^ 1u);\n        mbar_expect_tx(v_full + 8 * s, {});\n",
        unit_bytes(cfg, ops.v_bytes())
    );
    loads + &per_unit(cfg, &v_loads)
}

/// The tile's Q loads (with tail tiles, the units' coordinates first and no load for a tail tile), and
/// with [`Sm90AttentionConfig::prefetches_q`] its Q boxes prefetched into L2 before the wait for Q's
/// shared memory (the last tile's epilogue, where O is staged there).
pub(super) fn producer_q_loads(cfg: &Sm90AttentionConfig, ops: &Operands) -> (String, String) {
    let nd = ops.chunks[0];
    let cq = ops.chunk[0];
    let Rows {
        q: qr, batch: b, ..
    } = Rows::of(cfg);
    let q_box = |(h, b): (&str, &str)| -> String {
        (0..nd)
            .map(|c| {
                format!(
                    "      tma_load_4d(q_s + {}u, &tmQ, q_bar, {}, {qr}, {h}, {b});\n",
                    c * cq,
                    c * CHUNK
                )
            })
            .collect()
    };
    let q_loads = if cfg.tails() {
        format!(
            "{}      if (!tail) {{\n{}      }}\n",
            unit_coords(cfg, ops, qr),
            q_box(("h", "b"))
        )
    } else {
        q_box(("h", b))
    };
    let q_prefetch = if cfg.prefetches_q() {
        let boxes: String = (0..nd)
            .map(|c| format!("tma_prefetch_4d(&tmQ, {}, {qr}, h, {b}); ", c * CHUNK))
            .collect();
        format!(
            "      if (tcount > 0) {{ {boxes}}}   // the tile's Q into L2 while the last tile ends\n"
        )
    } else {
        String::new()
    };
    (q_loads, q_prefetch)
}

/// The producer's persistent tile loop: [`tile_loop`]'s, or with the dynamic scheduler
/// ([`Sm90AttentionConfig::dynamic`]) CTA `i`'s tile `i` (the consumers know it), then each next one
/// from [`publish_next_tile`] once this one's loads are issued (or at once for a skipped tile).
pub(super) fn producer_tile_loop(cfg: &Sm90AttentionConfig) -> String {
    if cfg.dynamic() {
        "int published = 0;   // tiles written into the mailbox\n      for (int tile = blockIdx.x; tile < tiles; ) {\n".to_string()
    } else {
        tile_loop(cfg).to_string()
    }
}

/// The producer thread's next tile (`gridDim.x + atomicAdd(&tile_sched[0], 1)`), written into the CTA's
/// mailbox `tile_sched[1 + blockIdx.x]` once the consumers have read the last one (mbarrier `tile_read`)
/// and announced on mbarrier `tile_full` (its arrival releases the write); past the last tile it tells
/// the consumers to stop. The mailbox is in global memory, not shared: racecheck takes neither an
/// mbarrier nor a `bar.arrive` -> `bar.sync` pair as ordering, so a shared-memory slot read by the
/// consumers and rewritten by the producer showed as a WAR hazard there (gpu/logs/attention90/run33, 34),
/// and the tool then failed on whole test suites.
pub(super) const PUBLISH_NEXT_TILE: &str = "      {   // the next tile, into the mailbox\n        const u32 fetch = atomicAdd(tile_sched, 1u);\n        if (fetch == (u32)tiles - 1u) atomicExch(tile_sched, 0u);   // the grid's last fetch: zero for the next launch\n        const int next = gridDim.x + (int)fetch;\n        if (published > 0) mbar_wait(tile_read, (published - 1) & 1);   // the consumers have read the last one\n        u32 cta; asm volatile(\"mov.u32 %0, %%ctaid.x;\" : \"=r\"(cta));   // read here, not kept live in 24 registers\n        tile_sched[1 + cta] = (u32)next;\n        mbar_arrive(tile_full);\n        ++published; tile = next;\n      }\n";

/// The consumers' fetch of their next tile from the producer's mailbox ([`PUBLISH_NEXT_TILE`]): at the
/// end of a tile's key blocks, before its epilogue (which does not need it), so that the load's latency
/// runs under the epilogue; the producer has published it by then (once it issued this tile's last
/// loads). Each consumer waits on its own and acknowledges once its whole warp group has read it.
pub(super) fn fetch_next_tile(cfg: &Sm90AttentionConfig) -> String {
    format!(
        "    mbar_wait(tile_full, fetched & 1);   // the producer's next tile, or the end\n    tile = (int)*(volatile u32*)&tile_sched[1 + blockIdx.x];\n    ++fetched;\n    {}   // the warp group has read it\n    if (tid == 0) mbar_arrive(tile_read);\n",
        sync::named_barrier_sync(&cfg.epilogue_barrier(), 128)
    )
}

/// `body` once per unit of the tile with tail tiles (unit `c`: K/V head `uhk` and batch `ub` of
/// [`unit_coords`]), else as is.
pub(super) fn per_unit(cfg: &Sm90AttentionConfig, body: &str) -> String {
    if !cfg.tails() {
        return body.to_string();
    }
    format!(
        "#pragma unroll\n        for (int c = 0; c < {}; ++c) if (c == 0 || tail) {{\n          const int uhk = u_hk[c], ub = u_b[c];\n  {}        }}\n",
        cfg.consumers,
        body.replace("\n        ", "\n          ")
    )
}

/// The producer's (head, batch) coordinates of a tile's units, once per tile (with tail tiles): unit `c`
/// is the pair `hb + c`, clamped to the last one for the missing pairs of the last group (whose
/// consumers store nothing); Q's 64-row boxes of a tail tile.
pub(super) fn unit_coords(cfg: &Sm90AttentionConfig, ops: &Operands, qr: &str) -> String {
    let n = cfg.consumers;
    let mut c = format!(
        "      int u_hk[{n}], u_b[{n}];   // the units' K/V heads and batches\n#pragma unroll\n      for (int c = 0; c < {n}; ++c) {{\n        const int u = min(hb + c, hbs - 1), uh = u % heads;\n        u_hk[c] = uh / group; u_b[c] = u / heads;\n        if (tail) {{   // unit c's 64 query rows at consumer c's rows of Q\n"
    );
    for ch in 0..cfg.head_dim / CHUNK {
        c += &format!(
            "          tma_load_4d(q_s + {}u + c * {}u, &tmQt, q_bar, {}, {qr}, uh, u_b[c]);\n",
            ch * ops.chunk[0],
            ops.q.mn64,
            ch * CHUNK
        );
    }
    c + "        }\n      }\n"
}

/// The bytes a stage's full barrier expects: `bytes` per unit of the tile.
pub(super) fn unit_bytes(cfg: &Sm90AttentionConfig, bytes: i64) -> String {
    if cfg.tails() {
        format!("tail ? {}u : {bytes}u", cfg.consumers * bytes)
    } else {
        format!("{bytes}u")
    }
}
