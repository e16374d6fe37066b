//! Random and adversarial expressions in CuTe notation: a small deterministic generator (no
//! shrinking needed: every failing case is printed whole, with its seed).

use cute_layout_core::notation::operation_names;

/// SplitMix64: fast, deterministic, good enough for test inputs.
pub struct Rng(u64);

impl Rng {
    /// A generator for case `case` of a run seeded with `seed`.
    pub fn new(seed: u64, case: u64) -> Rng {
        let mut r = Rng(seed ^ case.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        r.next();
        r
    }
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// True with probability `1 / n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Integers at and near the edges of `i64`, and the small ones layouts are made of.
pub const EXTREMES: &[i64] = &[
    i64::MIN,
    i64::MIN + 1,
    -4611686018427387904,
    -4294967296,
    -65536,
    -3,
    -2,
    -1,
    0,
    1,
    2,
    3,
    4,
    6,
    8,
    16,
    65536,
    4294967296,
    4611686018427387904,
    i64::MAX - 1,
    i64::MAX,
];

/// An integer leaf: small most of the time, an extreme value sometimes, static or dynamic.
pub fn int(r: &mut Rng, extreme: bool) -> String {
    let v = if extreme && r.one_in(3) {
        *r.pick(EXTREMES)
    } else {
        r.below(9) as i64 - if r.one_in(8) { 4 } else { 0 }
    };
    if r.one_in(2) {
        format!("_{v}")
    } else {
        v.to_string()
    }
}

/// A random IntTuple with the given nesting budget.
pub fn tuple(r: &mut Rng, depth: usize, extreme: bool) -> String {
    if depth == 0 || r.one_in(3) {
        return int(r, extreme);
    }
    let n = r.below(4);
    let parts: Vec<String> = (0..n).map(|_| tuple(r, depth - 1, extreme)).collect();
    format!("({})", parts.join(","))
}

/// A stride tuple with the nesting of `shape` (the leaves replaced by random ones).
pub fn like(r: &mut Rng, shape: &str, extreme: bool) -> String {
    relabel(r, shape, |r| int(r, extreme))
}

/// A tuple with the nesting of `shape` and new leaves from `leaf`.
fn relabel(r: &mut Rng, shape: &str, mut leaf: impl FnMut(&mut Rng) -> String) -> String {
    let mut out = String::new();
    let mut in_leaf = false;
    for c in shape.chars() {
        if matches!(c, '(' | ')' | ',') {
            in_leaf = false;
            out.push(c);
        } else if !in_leaf {
            in_leaf = true;
            out.push_str(&leaf(r));
        }
    }
    out
}

/// A random layout `S:D` (congruent most of the time, not always).
pub fn layout(r: &mut Rng, extreme: bool) -> String {
    let s = tuple(r, 3, extreme);
    let d = if r.one_in(10) {
        tuple(r, 3, extreme)
    } else {
        like(r, &s, extreme)
    };
    format!("{s}:{d}")
}

/// A small random layout: shapes 1..=6 and strides 0..=12 (static or dynamic), nested up to 2
/// deep, so that domains stay small and most operations have something to compute.
pub fn small_layout(r: &mut Rng) -> String {
    let s = small_tuple(r, 2, 6, 1);
    let d = relabel(r, &s, |r| small_int(r, 12, 0));
    format!("{s}:{d}")
}

fn small_int(r: &mut Rng, hi: usize, lo: usize) -> String {
    let v = lo + r.below(hi + 1 - lo);
    if r.one_in(2) {
        format!("_{v}")
    } else {
        v.to_string()
    }
}

fn small_tuple(r: &mut Rng, depth: usize, hi: usize, lo: usize) -> String {
    if depth == 0 || r.one_in(3) {
        return small_int(r, hi, lo);
    }
    let parts: Vec<String> = (0..1 + r.below(3))
        .map(|_| small_tuple(r, depth - 1, hi, lo))
        .collect();
    format!("({})", parts.join(","))
}

/// An argument of any kind the notation has.
pub fn arg(r: &mut Rng, extreme: bool) -> String {
    match r.below(12) {
        0..=2 => small_layout(r),
        3..=4 => layout(r, extreme),
        5..=6 => tuple(r, 3, extreme),
        7 => "_".into(),
        8 => format!(
            "Sw<{},{},{}> o _0 o {}",
            r.below(4),
            r.below(5),
            r.below(7) as i64 - 3,
            layout(r, false)
        ),
        9 => r
            .pick(&[
                "LayoutLeft",
                "LayoutRight",
                "SM80_16x8x16_F32F16F16F32_TN",
                "UniversalCopy<uint128_t>",
                "half_t",
                "foo",
            ])
            .to_string(),
        10 => format!("_1@{}@{}", r.below(5), r.below(3)),
        _ => int(r, extreme),
    }
}

/// A call of a random operation with random template arguments and arguments.
pub fn call(r: &mut Rng, extreme: bool) -> String {
    let names = operation_names();
    let name = *r.pick(&names);
    let targs = match r.below(8) {
        0 => format!("<{}>", r.below(4)),
        1 if extreme => format!("<{}>", r.pick(EXTREMES)),
        2 => format!("<{},{}>", r.below(3), r.below(3)),
        _ => String::new(),
    };
    // Most operations take one or two layouts.
    let n = *r.pick(&[1, 1, 2, 2, 2, 0, 3]);
    let args: Vec<String> = (0..n)
        .map(|_| {
            if r.one_in(4) {
                call_leaf(r, extreme)
            } else {
                arg(r, extreme)
            }
        })
        .collect();
    format!("{name}{targs}({})", args.join(","))
}

/// An oracle expression `name<targs>(a0,a1,...)` with one top-level argument replaced by a random
/// one ([`arg`]): the operation, its arity and template arguments stay valid.
pub fn replace_arg(r: &mut Rng, expr: &str, extreme: bool) -> String {
    let Some(open) = expr.find('(') else {
        return expr.to_string();
    };
    let (mut depth, mut cuts) = (0i32, vec![open]);
    for (i, c) in expr.char_indices().skip_while(|&(i, _)| i <= open) {
        match c {
            '(' | '<' => depth += 1,
            ')' | '>' if depth > 0 => depth -= 1,
            ',' if depth == 0 => cuts.push(i),
            _ => {}
        }
    }
    let end = expr.len().saturating_sub(1);
    cuts.push(end);
    let k = r.below(cuts.len() - 1);
    let (a, b) = (cuts[k] + 1, cuts[k + 1]);
    if a > b {
        return expr.to_string();
    }
    format!("{}{}{}", &expr[..a], arg(r, extreme), &expr[b..])
}

/// A call whose arguments are plain values (one level of nesting).
fn call_leaf(r: &mut Rng, extreme: bool) -> String {
    let names = operation_names();
    let name = *r.pick(&names);
    let args: Vec<String> = (0..r.below(3)).map(|_| arg(r, extreme)).collect();
    format!("{name}({})", args.join(","))
}

/// Bytes from an alphabet of notation characters, control characters and invalid UTF-8.
pub fn garbage(r: &mut Rng) -> Vec<u8> {
    const ALPHABET: &[u8] = b"_0123456789-()@:,<> oSwLayoutLeftRightmake_layoutsizecrd2idx{}[]\\\"'\t\r\n\x00\x1b\x7f\xff\xfe\xc3";
    (0..r.below(64)).map(|_| *r.pick(ALPHABET)).collect()
}

/// `s` mutated: half the time one of its numbers is replaced (small, extreme, static or dynamic:
/// the expression stays well formed), else up to three characters are deleted, inserted (from
/// notation and control characters) or replaced.
pub fn mutate(r: &mut Rng, s: &str) -> String {
    if r.one_in(2) {
        return mutate_number(r, s);
    }
    mutate_chars(r, s)
}

/// `s` with one of its integers (with its `_`, if any) replaced by [`int`].
fn mutate_number(r: &mut Rng, s: &str) -> String {
    let starts: Vec<usize> = s
        .char_indices()
        .filter(|&(i, c)| {
            let prev = s[..i].chars().next_back();
            (c.is_ascii_digit() || c == '_')
                && !prev.is_some_and(|p| p.is_ascii_alphanumeric() || p == '_' || p == '-')
        })
        .map(|(i, _)| i)
        .collect();
    if starts.is_empty() {
        return s.to_string();
    }
    let i = *r.pick(&starts);
    let end = s[i..]
        .char_indices()
        .skip(1)
        .find(|&(_, c)| !c.is_ascii_digit())
        .map_or(s.len(), |(k, _)| i + k);
    format!("{}{}{}", &s[..i], int(r, true), &s[end..])
}

fn mutate_chars(r: &mut Rng, s: &str) -> String {
    const INSERTS: &[char] = &[
        '(', ')', ',', ':', '_', '-', '0', '1', '9', '@', '<', '>', 'o', ' ', '\u{1b}', '\0', 'é',
    ];
    let mut v: Vec<char> = s.chars().collect();
    for _ in 0..=r.below(3) {
        let p = r.below(v.len() + 1);
        match r.below(3) {
            0 if p < v.len() => {
                v.remove(p);
            }
            1 => v.insert(p, *r.pick(INSERTS)),
            _ if p < v.len() => v[p] = *r.pick(INSERTS),
            _ => {}
        }
    }
    v.into_iter().collect()
}

/// Nesting `k` levels deep, in one of the ways the notation nests: parentheses, calls, composed
/// layouts, or layouts inside tuples.
pub fn deep(r: &mut Rng, k: usize) -> String {
    match r.below(4) {
        0 => format!("{}1{}", "(".repeat(k), ")".repeat(k)),
        1 => format!("{}(4,2){}", "make_layout(".repeat(k), ")".repeat(k)),
        2 => format!("{}_8:_1", "Sw<1,0,1> o _0 o ".repeat(k)),
        _ => format!("{}1:1{}", "(".repeat(k), ")".repeat(k)),
    }
}

/// A flat layout of `n` modes: size-1 modes (static or dynamic), a few size-2 modes, strides
/// compact, zero or random.
pub fn wide(r: &mut Rng, n: usize) -> String {
    let stat = if r.one_in(2) { "_" } else { "" };
    let shape: Vec<String> = (0..n)
        .map(|k| {
            if k < 20 && r.one_in(2) {
                format!("{stat}2")
            } else {
                format!("{stat}1")
            }
        })
        .collect();
    let stride: Vec<String> = (0..n)
        .map(|k| match r.below(3) {
            0 => format!("{stat}0"),
            1 => format!("{stat}{}", 1i64 << k.min(40)),
            _ => format!("{stat}{}", r.below(1000)),
        })
        .collect();
    format!("({}):({})", shape.join(","), stride.join(","))
}

/// An expression that asks for a huge result: nested `append<N>`/`prepend<N>`, tiled pictures,
/// products and compositions of big operands.
pub fn bomb(r: &mut Rng) -> String {
    let n = *r.pick(&[4096, 65536, 1 << 20, 1 << 30, i64::MAX]);
    let op = *r.pick(&["append", "prepend"]);
    match r.below(5) {
        0 => format!("{op}<{n}>(1,{op}<{n}>(1,{op}<{n}>(1,(1,1))))"),
        1 => format!("{op}<{n}>({op}<{n}>((1,1),1),{op}<{n}>((1,1),1))"),
        2 => format!("blocked_product({},{})", wide(r, 64), wide(r, 64)),
        3 => format!("tiled_mma_layout_c_tv(SM80_16x8x16_F32F16F16F32_TN,(_{n},_{n},_1))"),
        _ => format!("composition({},{})", wide(r, 4096), wide(r, 4096)),
    }
}
