#!/usr/bin/env python3
"""Fourth campaign, second set: swizzled (composed) layouts in divides/products/casts/inverses,
by-mode tilers deeper than the layout, tuple cotargets, degenerate inverses, rank-mismatched coordinates.
usage: c4_gen2.py SEED N OUT.tsv  (reuses c4_gen.py's random layouts)"""
import sys
import c4_gen as g
from c4_gen import R, I, call, layout, composed, swz, tiler, shape_node, coord_for, pyval, prod, flat, node, flags
from notation import unparse

OPS = {}


def op(w):
    def d(f):
        OPS[f.__name__[2:]] = (w, f)
        return f
    return d


def small_layout(**kw):
    return layout(maxsize=256, **kw)


def deep_tiler(A):
    """by-mode tiler that nests one level deeper than A's modes somewhere"""
    S = g.shape_of(A)
    modes = S[1] if S[0] == 'tuple' else [S]
    out = []
    for m in modes[:R.randint(1, len(modes))]:
        n = prod(pyval(m))
        c = R.random()
        if c < 0.3:
            out.append(('tuple', [g.tiler_for(m), ('under',)][:R.randint(1, 2)]))
        elif c < 0.5:
            out.append(('tuple', [('tuple', [I(1, True)])]))
        elif c < 0.7:
            out.append(g.tiler_for(m))
        else:
            out.append(I(R.choice([1, 2, n]), R.random() < 0.5))
    return ('tuple', out)


@op(5)
def g_composed_divide():
    A = composed(small_layout())
    o = R.choice(['logical_divide', 'zipped_divide', 'tiled_divide', 'flat_divide'])
    return call(o, A, tiler(A) if R.random() < 0.6 else deep_tiler(A))


@op(3)
def g_deep_divide():
    A = layout()
    o = R.choice(['logical_divide', 'zipped_divide', 'tiled_divide', 'flat_divide', 'composition'])
    return call(o, A, deep_tiler(A))


@op(4)
def g_composed_product():
    A = composed(small_layout())
    o = R.choice(['logical_product', 'zipped_product', 'tiled_product', 'flat_product', 'blocked_product',
                  'raked_product'])
    S = g.shape_of(A)
    r = len(S[1]) if S[0] == 'tuple' else 1
    if R.random() < 0.5:
        B = layout([R.choice([1, 2, 3, 4]) for _ in range(r)] if r > 1 else R.choice([2, 4]))
    elif R.random() < 0.5:
        B = small_layout()
    else:
        B = ('tuple', [R.choice([small_layout(), I(R.choice([1, 2, 4]), R.random() < 0.5), ('under',)])
                       for _ in range(R.randint(1, 3))])
    return call(o, A, B)


@op(4)
def g_complement_tuple():
    L = layout(maxsize=1 << 10)
    S = g.rshape(rank=R.choice([1, 2, 3, 4]), depth=R.choice([1, 2, 3]), maxsize=1 << 16)
    if R.random() < 0.3:
        S = [R.choice([1, 2, 4]) * x for x in (S if isinstance(S, list) else [S])]
    return call('complement', L, shape_node(S))


@op(4)
def g_inverse():
    c = R.random()
    S = g.rshape(rank=R.choice([2, 3, 4, 5, 6]), depth=R.choice([1, 2]), maxsize=1 << 12)
    fs = flat(S)
    if c < 0.3:  # size-1 modes with arbitrary strides
        fs = [1 if R.random() < 0.4 else x for x in fs]
        D = [R.choice([0, 1, 2, 3, 5, 64, -1, -4]) for _ in fs]
    elif c < 0.6:  # compact with zeros / repeats
        D, acc = [], 1
        for x in fs:
            D.append(0 if R.random() < 0.25 else acc)
            acc *= x if R.random() < 0.8 else 1
    else:
        D = g.flat(g.rstride(S))
    S = g.refill(S, list(fs))
    L = layout(S, g.refill(S, D))
    if R.random() < 0.2:
        L = composed(L)
    return call(R.choice(['right_inverse', 'left_inverse']), L)


@op(4)
def g_eval_hier():
    L = composed() if R.random() < 0.3 else layout()
    Sn = g.shape_of(L)
    return call('eval', L, coord_for(Sn, R.choice(['nat', 'mixed', 'bad', 'rank'])))


@op(3)
def g_coords():
    Sn = shape_node()
    D = node(g.rstride(pyval(Sn)), flags(len(flat(pyval(Sn)))))
    c = coord_for(Sn, R.choice(['rank', 'nat', 'mixed', 'bad']))
    return call(R.choice(['idx2crd', 'crd2idx']), c, Sn, D)


@op(3)
def g_cast_composed():
    L = composed(small_layout())
    if R.random() < 0.5:
        return call(R.choice(['upcast', 'downcast']), L, targs=(R.choice([2, 4, 8]),))
    a, b = R.choice([(8, 16), (16, 8), (32, 8), (8, 32), (4, 8), (6, 8), (8, 6)])
    return call('recast_layout', L, targs=(a, b))


@op(3)
def g_misc_composed():
    o = R.choice(['make_fragment_like', 'make_layout_like', 'filter', 'coalesce', 'nullspace', 'max_common_vector',
                  'max_common_layout', 'complement'])
    L = composed(small_layout())
    if o.startswith('max_common'):
        return call(o, L, layout(pyval(g.shape_of(L))))
    return call(o, L)


@op(2)
def g_tile_to_shape():
    A = small_layout()
    S = pyval(A[1])
    modes = S if isinstance(S, list) else [S]
    tgt = [prod(m) * R.choice([1, 2, 4]) for m in modes][:R.randint(1, len(modes))]
    tn = shape_node(tgt if len(tgt) > 1 else tgt[0])
    perm = [R.randrange(len(tgt)) for _ in tgt]
    return call('tile_to_shape', A, tn, node(perm if len(perm) > 1 else perm[0], flags(len(perm))))


@op(2)
def g_make_layout_many():
    args = [R.choice([layout(maxsize=64), composed(layout(maxsize=64))]) if R.random() < 0.15 else layout(maxsize=64)
            for _ in range(R.randint(2, 6))]
    return call('make_layout', *args)


@op(2)
def g_products_rank():
    o = R.choice(['blocked_product', 'raked_product'])
    A = layout(g.rshape(rank=R.choice([4, 5, 6]), depth=R.choice([1, 2]), maxsize=1024))
    S = pyval(A[1])
    r = len(S) if isinstance(S, list) else 1
    B = layout([R.choice([1, 2, 3]) for _ in range(r)])
    return call(o, A, B)


def main():
    seed, n, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    names = list(OPS)
    ws = [OPS[k][0] for k in names]
    seen = set()
    with open(out, 'w') as f:
        k = 0
        while k < n:
            e = OPS[R.choices(names, ws)[0]][1]()
            s = unparse(e)
            if s in seen or len(s) > 1500:
                continue
            seen.add(s)
            k += 1
            f.write('c4b_%d_%05d\t%s\t%s\n' % (seed, k, e[1], s))


if __name__ == '__main__':
    main()
