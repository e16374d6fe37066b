#!/usr/bin/env python3
"""Fourth campaign: the heavy ops of public.tsv in forms the earlier generators sampled little.
usage: c4_gen.py SEED N OUT.tsv  -> id<TAB>op<TAB>expr  (N expressions, op mix below)
Forms: ranks 4-6, depth 3-4, negative strides, zeros mixed with others, many size-1 modes, one large
mode (2^16..2^27, total size < 2^31), each leaf independently static or dynamic, tilers mixing layouts,
integers and `_` at several levels (also deeper than the layout), tuple cotargets, inverses of
non-injective / non-surjective layouts, compositions with B strides that do not divide A's shapes,
swizzled (composed) layouts in divides/products/eval/inverses/casts."""
import random
import sys
from notation import flat, prod, refill, unparse

R = random.Random(int(sys.argv[1]))
SMALL = [1] * 8 + [2] * 14 + [4] * 10 + [8] * 6 + [3] * 5 + [16] * 2 + [5, 6, 7, 12, 32]


def I(v, s):
    return ('int', v, s)


def call(name, *args, targs=()):
    return ('call', name, [str(t) for t in targs], list(args))


def rshape(rank=None, depth=None, maxsize=1 << 14):
    """python nested list/int; rank 1-6 at the top, depth up to 4"""
    if depth is None:
        depth = R.choice([1, 1, 2, 2, 3, 3, 4])
    if rank is None:
        rank = R.choice([1, 2, 2, 3, 3, 4, 4, 5, 5, 6])

    def go(d, r):
        if d <= 1 and r == 1 and R.random() < 0.5:
            return R.choice(SMALL)
        out = []
        for _ in range(r):
            if d > 1 and R.random() < 0.45:
                out.append(go(d - 1, R.choice([1, 1, 2, 2, 3])))
            else:
                out.append(R.choice(SMALL))
        return out
    for _ in range(50):
        S = go(depth, rank)
        if prod(S) <= maxsize:
            break
    else:
        S = refill(S, [min(x, 2) for x in flat(S)])
    if R.random() < 0.12:  # one large mode, total size < 2^31
        fs = flat(S)
        j = R.randrange(len(fs))
        rest = prod(fs) // max(fs[j], 1)
        cap = max(1, (1 << 30) // max(rest, 1))
        big = R.choice([1 << R.randint(16, 27), R.randint(1 << 16, 1 << 22)])
        fs[j] = max(1, min(big, cap))
        S = refill(S, fs)
    return S


def rstride(S):
    fs = flat(S)
    k = len(fs)
    c = R.random()
    if c < 0.55:
        order = list(range(k))
        if R.random() < 0.7:
            R.shuffle(order)
        d = [0] * k
        acc = 1
        for j in order:
            if R.random() < 0.08:
                acc *= R.choice([2, 3])
            d[j] = acc
            acc *= fs[j]
    elif c < 0.8:
        d = [R.choice([0, 1, 1, 2, 4, 8, 16, 3, 6, 12, 64, 5, 7]) for _ in range(k)]
    else:  # big strides
        d = [R.choice([0, 1, 2, 4, 1 << R.randint(10, 24), R.randint(1, 1 << 20)]) for _ in range(k)]
    if R.random() < 0.25:  # zeros mixed in
        d = [0 if R.random() < 0.3 else x for x in d]
    if R.random() < 0.25:  # negative strides
        d = [-x if R.random() < 0.5 else x for x in d]
    # keep |cosize| < 2^31
    while sum(abs(x) * (s - 1) for x, s in zip(d, fs)) >= (1 << 30):
        d = [x // 2 for x in d]
    return refill(S, d)


def flags(k):
    c = R.random()
    if c < 0.3:
        return [True] * k
    if c < 0.45:
        return [False] * k
    p = R.random()
    return [R.random() < p for _ in range(k)]


def node(t, fl):
    if isinstance(t, int):
        return I(t, fl.pop(0))
    return ('tuple', [node(x, fl) for x in t])


def shape_node(S=None):
    S = rshape() if S is None else S
    return node(S, flags(len(flat(S))))


def layout(S=None, D=None, **kw):
    S = rshape(**kw) if S is None else S
    D = rstride(S) if D is None else D
    k = len(flat(S))
    sf = flags(k)
    df = list(sf) if R.random() < 0.4 else flags(k)
    return ('layout', node(S, list(sf)), node(D, df))


def swz():
    b = R.choice([0, 1, 2, 2, 3, 3])
    m = R.choice([0, 1, 2, 3, 4])
    s = R.choice(range(max(b, 1), 6)) * R.choice([1, 1, -1])
    return ('swz', b, m, s)


def composed(L=None):
    L = L or layout(maxsize=4096)
    c = R.random()
    off = I(0, True) if c < 0.6 else I(R.choice([0, 1, 2, 4, 8, 16, 32]), R.random() < 0.8)
    return ('composed', swz(), off, L)


def any_layout(pc=0.12):
    return composed() if R.random() < pc else layout()


def shape_of(L):
    return L[3][1] if L[0] == 'composed' else L[1]


def pyval(n):
    if n[0] == 'int':
        return n[1]
    return [pyval(x) for x in n[1]]


def divisor_shape(n):
    divs = [d for d in range(1, min(n, 4096) + 1) if n % d == 0] or [1]
    tgt = R.choice(divs) if R.random() < 0.8 else R.choice(SMALL)
    fs, rem = [], tgt
    for _ in range(R.choice([1, 1, 2, 2, 3, 4])):
        d = R.choice([d for d in range(1, rem + 1) if rem % d == 0])
        fs.append(d)
        rem //= d
    if rem > 1:
        fs.append(rem)
    return fs[0] if len(fs) == 1 else fs


def sublayout(n):
    S = divisor_shape(n)
    if R.random() < 0.5:
        return layout(S)
    # strides that may or may not divide A's shapes
    D = refill(S, [R.choice([1, 1, 2, 3, 4, 5, 6, 8, 16, -1, -2, 0]) for _ in flat(S)])
    return layout(S, D)


def tiler_for(m, depth=0):
    """tiler element for mode node m: layout, integer, `_`, or nested by-mode tiler (any depth)"""
    n = prod(pyval(m))
    c = R.random()
    if c < 0.15:
        return ('under',)
    if c < 0.5:
        return sublayout(n)
    if c < 0.75 or depth >= 3:
        return node(divisor_shape(n), flags(4)[:1] * 6)
    subs = m[1] if m[0] == 'tuple' else [m]
    r = len(subs) + R.choice([0, 0, 0, 1, -1])
    r = max(1, r)
    return ('tuple', [tiler_for(subs[min(j, len(subs) - 1)], depth + 1) for j in range(r)])


def tiler(A):
    S = shape_of(A)
    if R.random() < 0.3:
        return sublayout(prod(pyval(S)))
    modes = S[1] if S[0] == 'tuple' else [S]
    r = R.randint(1, len(modes) + (1 if R.random() < 0.1 else 0))
    return ('tuple', [tiler_for(modes[min(j, len(modes) - 1)]) for j in range(r)])


def coord_for(Sn, mode=None):
    mode = mode or R.choice(['1d', 'rank', 'nat', 'nat', 'mixed', 'bad'])
    n = prod(pyval(Sn))
    st = R.random() < 0.4

    def ri(m):
        v = R.randrange(max(m, 1))
        if R.random() < 0.05:
            v = R.choice([m, -1, m + 3])
        return v
    if mode == '1d' or Sn[0] == 'int':
        return I(ri(n), st if R.random() < 0.8 else not st)
    if mode == 'rank':
        return ('tuple', [I(ri(prod(pyval(m))), st) for m in Sn[1]])

    def nat(s):
        if s[0] == 'int':
            return I(ri(s[1]), st if R.random() < 0.8 else not st)
        if mode == 'mixed' and R.random() < 0.4:
            return I(ri(prod(pyval(s))), st)
        if mode == 'bad' and R.random() < 0.15:
            return ('tuple', [nat(s)])
        return ('tuple', [nat(x) for x in s[1]])
    return nat(Sn)


def profile_for(Sn, depth=0):
    c = R.random()
    if c < 0.35 or depth > 3:
        return I(1, True)
    if Sn[0] == 'int':
        return ('tuple', [I(1, True)]) if c < 0.6 else I(1, True)
    k = len(Sn[1]) + R.choice([0, 0, 0, -1, 1])
    return ('tuple', [profile_for(Sn[1][min(j, len(Sn[1]) - 1)], depth + 1) for j in range(max(k, 1))])


OPS = {}


def op(w):
    def d(f):
        OPS[f.__name__[2:]] = (w, f)
        return f
    return d


@op(14)
def g_composition():
    c = R.random()
    A = layout()
    n = prod(pyval(A[1]))
    if c < 0.35:
        B = sublayout(n)
    elif c < 0.65:
        B = tiler(A)
    elif c < 0.72:
        B = I(R.choice(SMALL + [n]), R.random() < 0.5)
    elif c < 0.82:
        A = composed()
        B = sublayout(prod(pyval(shape_of(A))))
    elif c < 0.9:
        A = swz()
        B = layout(maxsize=4096)
    else:
        B = layout()  # unrelated B
    return call('composition', A, B)


@op(10)
def g_eval():
    c = R.random()
    if c < 0.6:
        L = layout()
    elif c < 0.8:
        L = composed()
    elif c < 0.88:
        w = swz()
        return call('eval', w, I(R.randrange(1 << R.randint(4, 20)), R.random() < 0.5))
    else:
        A = layout(maxsize=4096)
        o = R.choice(['composition', 'logical_divide', 'zipped_divide', 'logical_product'])
        B = tiler(A) if o != 'logical_product' else layout(maxsize=64)
        L = call(o, A, B)
        return call('eval', L, I(R.randrange(max(1, prod(pyval(A[1])))), R.random() < 0.5))
    return call('eval', L, coord_for(shape_of(L)))


@op(6)
def g_complement():
    L = layout(maxsize=1 << 12)
    c = R.random()
    if c < 0.3:
        return call('complement', L)
    if c < 0.65:
        return call('complement', L, I(R.choice([1, 2, 16, 24, 64, 100, 128, 256, 1024, 4096, 1 << 20]), R.random() < 0.5))
    return call('complement', L, shape_node(rshape(rank=R.choice([1, 2, 2, 3, 4]), depth=R.choice([1, 1, 2, 3]))))


@op(6)
def g_logical_divide():
    A = any_layout(0.15)
    return call('logical_divide', A, tiler(A))


@op(5)
def g_coalesce():
    c = R.random()
    if c < 0.45:
        return call('coalesce', layout())
    if c < 0.85:
        L = layout()
        return call('coalesce', L, profile_for(L[1]))
    return call('coalesce', shape_node())


@op(5)
def g_logical_product():
    A = any_layout(0.1)
    c = R.random()
    if c < 0.55:
        B = layout(maxsize=256)
    elif c < 0.85:
        B = ('tuple', [R.choice([layout(maxsize=16), shape_node(rshape(maxsize=16)), ('under',)])
                       for _ in range(R.randint(1, 4))])
    else:
        B = I(R.choice([1, 2, 3, 4, 6]), R.random() < 0.5)
    return call('logical_product', A, B)


@op(4)
def g_right_inverse():
    return call('right_inverse', any_layout(0.12) if R.random() < 0.85 else swz())


@op(3)
def g_left_inverse():
    return call('left_inverse', any_layout(0.12) if R.random() < 0.85 else swz())


@op(4)
def g_idx2crd():
    Sn = shape_node()
    c = R.random()
    if c < 0.55:
        return call('idx2crd', coord_for(Sn, '1d'), Sn)
    if c < 0.8:
        return call('idx2crd', coord_for(Sn), Sn)
    D = node(rstride(pyval(Sn)), flags(len(flat(pyval(Sn)))))
    return call('idx2crd', coord_for(Sn, '1d'), Sn, D)


@op(4)
def g_crd2idx():
    Sn = shape_node()
    c = R.random()
    if c < 0.7:
        D = node(rstride(pyval(Sn)), flags(len(flat(pyval(Sn)))))
        return call('crd2idx', coord_for(Sn), Sn, D)
    return call('crd2idx', coord_for(Sn), Sn)


@op(3)
def g_make_layout():
    c = R.random()
    if c < 0.25:
        return call('make_layout', shape_node())
    if c < 0.45:
        return call('make_layout', shape_node(), ('tag', R.choice(['LayoutLeft', 'LayoutRight'])))
    if c < 0.6:
        L = layout()
        return call('make_layout', L[1], L[2])
    args = [any_layout(0.0) for _ in range(R.randint(1, 4))]
    if R.random() < 0.2:
        args[-1] = call('complement', args[0], I(R.choice([64, 256, 4096]), True))
    return call('make_layout', *args)


@op(4)
def g_max_common():
    A = layout()
    c = R.random()
    if c < 0.4:
        B = layout(pyval(A[1]))
    elif c < 0.6:
        B = ('layout', A[1], node(rstride(pyval(A[1])), flags(len(flat(pyval(A[1]))))))
    elif c < 0.8:
        B = layout(refill(pyval(A[1]), [1] * len(flat(pyval(A[1])))) if R.random() < 0.3 else None)
    else:
        B = call(R.choice(['right_inverse', 'coalesce']), A)
    return call(R.choice(['max_common_vector', 'max_common_layout']), A, B)


@op(9)
def g_prod_div():
    o = R.choice(['blocked_product', 'raked_product', 'tiled_product', 'zipped_product', 'flat_product',
                  'zipped_divide', 'tiled_divide', 'flat_divide', 'blocked_product', 'raked_product'])
    A = any_layout(0.12)
    if o.endswith('divide'):
        return call(o, A, tiler(A))
    S = shape_of(A)
    r = len(S[1]) if S[0] == 'tuple' else 1
    if R.random() < 0.6:
        rr = r if R.random() < 0.8 else R.choice([1, 2, 3])
        Sb = [R.choice([1, 1, 2, 3, 4]) for _ in range(rr)]
        B = layout(Sb if rr > 1 or R.random() < 0.3 else Sb[0])
    elif R.random() < 0.5:
        B = layout(maxsize=64)
    else:
        B = ('tuple', [R.choice([layout(maxsize=8), I(R.choice([1, 2, 3]), R.random() < 0.5), ('under',)])
                       for _ in range(R.randint(1, 3))])
    return call(o, A, B)


@op(4)
def g_cast():
    o = R.choice(['upcast', 'downcast', 'recast_layout'])
    L = any_layout(0.15)
    if o == 'recast_layout':
        a, b = R.choice([(8, 16), (16, 8), (16, 32), (32, 16), (8, 32), (32, 8), (4, 8), (8, 4), (6, 4),
                         (4, 6), (8, 6), (6, 8), (16, 64), (64, 16), (12, 8), (8, 8)])
        return call(o, L, targs=(a, b))
    return call(o, L, targs=(R.choice([1, 2, 2, 4, 4, 8, 16, 3]),))


@op(6)
def g_misc():
    o = R.choice(['nullspace', 'filter', 'make_layout_like', 'make_fragment_like', 'nullspace', 'filter',
                  'make_layout_like', 'make_fragment_like'])
    return call(o, layout())


@op(2)
def g_tile_to_shape():
    A = layout(maxsize=1024)
    S = pyval(A[1])
    modes = S if isinstance(S, list) else [S]
    k = len(modes) + R.choice([0, 0, 0, 1, -1])
    tgt = [prod(modes[min(j, len(modes) - 1)]) * R.choice([1, 1, 2, 3, 4]) for j in range(max(k, 1))]
    if R.random() < 0.2:
        tgt = [[t, R.choice([1, 2])] if R.random() < 0.4 else t for t in tgt]
    tn = shape_node(tgt if len(tgt) > 1 else tgt[0])
    if R.random() < 0.35 and len(tgt) > 1:
        perm = list(range(len(tgt)))
        R.shuffle(perm)
        return call('tile_to_shape', A, tn, node(perm, flags(len(perm))))
    return call('tile_to_shape', A, tn)


@op(2)
def g_make_ordered_layout():
    S = rshape()
    k = len(flat(S))
    perm = list(range(k))
    R.shuffle(perm)
    if R.random() < 0.3:
        perm = [R.randrange(k) for _ in range(k)]  # ties
    if R.random() < 0.15:
        return call('make_ordered_layout', shape_node(S), I(R.randrange(3), R.random() < 0.5))
    return call('make_ordered_layout', shape_node(S), node(refill(S, perm), flags(k)))


@op(3)
def g_compact():
    o = R.choice(['compact_col_major', 'compact_row_major'])
    if R.random() < 0.6:
        return call(o, shape_node())
    return call(o, shape_node(), I(R.choice([1, 2, 3, 5, 0, -1]), R.random() < 0.5))


@op(2)
def g_with_shape():
    A = layout()
    n = prod(pyval(A[1]))
    c = R.random()
    if c < 0.5:
        S = divisor_shape(n)
        if isinstance(S, list) and R.random() < 0.5:
            S = [S[0], S[1:]] if len(S) > 2 else [S]
    else:
        S = rshape(maxsize=n if n > 0 else 16)
    return call('with_shape', A, shape_node(S))


def main():
    seed, n, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    names = list(OPS)
    ws = [OPS[k][0] for k in names]
    seen = set()
    with open(out, 'w') as f:
        k = 0
        while k < n:
            name = R.choices(names, ws)[0]
            e = OPS[name][1]()
            s = unparse(e)
            if s in seen or len(s) > 1500:
                continue
            seen.add(s)
            k += 1
            f.write('c4_%d_%05d\t%s\t%s\n' % (seed, k, e[1], s))


if __name__ == '__main__':
    main()
