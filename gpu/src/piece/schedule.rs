//! Tile schedulers: which output tile a CTA (or a persistent CTA's iteration) computes.
//!
//! ```
//! let s = cute_gpu::piece::schedule::grouped_raster("  ", "blockIdx.x", 8, ("tile_m", "tile_n"));
//! assert!(s.contains("const int tile_m = first_m + (blockIdx.x % per_group) % group_rows"));
//! ```

/// Grouped rasterization (for L2 reuse): linear tile index `tile` -> (`out.0`, `out.1`) = (tile row, tile
/// column), visiting groups of `group_m` tile rows column by column. Needs `tiles_n` and `tiles_m` in scope.
///
/// ```
/// let s = cute_gpu::piece::schedule::grouped_raster("", "t", 4, ("tm", "tn"));
/// assert!(s.starts_with("const int per_group = 4 * tiles_n, group = t / per_group, first_m = group * 4;"));
/// assert!(s.contains("tn = (t % per_group) / group_rows;"));
/// ```
pub fn grouped_raster(indent: &str, tile: &str, group_m: i64, out: (&str, &str)) -> String {
    grouped_raster_over(indent, tile, group_m, out, "tiles_m", false)
}

/// [`grouped_raster`] over `rows` tile rows (a C expression in scope; e.g. rows of cluster tiles), or with
/// `along_n` transposed: groups of `group` tile columns walked row by row, so that consecutive tiles share
/// their tile row (the A rows they read) instead of their tile column. Needs `tiles_n`.
///
/// ```
/// use cute_gpu::piece::schedule::grouped_raster_over;
/// let s = grouped_raster_over("", "t", 8, ("tcm", "tn"), "cluster_rows", false);
/// assert!(s.contains("group_rows = min(cluster_rows - first_m, 8);"));
/// let n = grouped_raster_over("", "t", 8, ("tcm", "tn"), "cluster_rows", true);
/// assert!(n.starts_with("const int per_group = 8 * cluster_rows, group = t / per_group, first_n = group * 8;"));
/// assert!(n.contains("tcm = (t % per_group) / group_cols, tn = first_n + (t % per_group) % group_cols;"));
/// ```
pub fn grouped_raster_over(
    indent: &str,
    tile: &str,
    group: i64,
    (tm, tn): (&str, &str),
    rows: &str,
    along_n: bool,
) -> String {
    let (other, extent, first, len) = match along_n {
        true => (rows, "tiles_n", "first_n", "group_cols"),
        false => ("tiles_n", rows, "first_m", "group_rows"),
    };
    let within = format!("{first} + ({tile} % per_group) % {len}");
    let across = format!("({tile} % per_group) / {len}");
    let (m, n) = match along_n {
        true => (across, within),
        false => (within, across),
    };
    format!(
        "{indent}const int per_group = {group} * {other}, group = {tile} / per_group, {first} = group * {group};\n\
{indent}const int {len} = min({extent} - {first}, {group});\n\
{indent}const int {tm} = {m}, {tn} = {n};\n"
    )
}

/// [`grouped_raster_over`] over a strided batch: the linear tile index `tile` runs over `L` batches of
/// `tiles_mn = rows * tiles_n` tiles each; `batch` is the batch, the tile within it is rastered as one
/// problem's. Needs `rows`, `tiles_n` and `tiles_mn` in scope.
///
/// ```
/// let s = cute_gpu::piece::schedule::batched_raster("", "t", 8, ("tm", "tn"), "tb", "tiles_m", false);
/// assert!(s.starts_with("const int tb = t / tiles_mn, t_mn = t % tiles_mn;"));
/// assert!(s.contains("group = t_mn / per_group"));
/// ```
pub fn batched_raster(
    indent: &str,
    tile: &str,
    group_m: i64,
    out: (&str, &str),
    batch: &str,
    rows: &str,
    along_n: bool,
) -> String {
    format!(
        "{indent}const int {batch} = {tile} / tiles_mn, {tile}_mn = {tile} % tiles_mn;\n{}",
        grouped_raster_over(indent, &format!("{tile}_mn"), group_m, out, rows, along_n)
    )
}

/// The tile counts of an `(M,N)` output in `(bm, bn)` tiles: `tiles_m`, `tiles_n` from the extent
/// expressions `m`, `n`.
///
/// ```
/// let s = cute_gpu::piece::schedule::tile_counts("  ", "M", "N", 128, 256);
/// assert_eq!(s, "  const int tiles_m = (M + 127) / 128, tiles_n = (N + 255) / 256;\n");
/// ```
pub fn tile_counts(indent: &str, m: &str, n: &str, bm: i64, bn: i64) -> String {
    format!(
        "{indent}const int tiles_m = ({m} + {}) / {bm}, tiles_n = ({n} + {}) / {bn};\n",
        bm - 1,
        bn - 1
    )
}

/// The loop header of a persistent CTA: tiles `first`, `first + step`, ... below `tiles`
/// (`first` and `step` C expressions, e.g. `blockIdx.x` and `gridDim.x`).
///
/// ```
/// let s = cute_gpu::piece::schedule::persistent_loop("blockIdx.x", "gridDim.x");
/// assert_eq!(s, "for (int t = blockIdx.x; t < tiles; t += gridDim.x)");
/// ```
pub fn persistent_loop(first: &str, step: &str) -> String {
    format!("for (int t = {first}; t < tiles; t += {step})")
}
