#!/usr/bin/env python3
"""Fourth campaign, third set: edge values in the heavy ops: size-0 modes, negative coordinates and
indices, swizzles at negative / large offsets, strides near 2^30, shapes of only 1s, static/dynamic 1s.
usage: c4_gen3.py SEED N OUT.tsv"""
import sys
import c4_gen as g
from c4_gen import R, I, call, layout, composed, swz, node, flags, flat, refill, pyval, prod
from notation import unparse


def edge_layout():
    S = g.rshape(rank=R.choice([1, 2, 3, 4, 5]), depth=R.choice([1, 2, 3]), maxsize=1024)
    fs = flat(S)
    c = R.random()
    if c < 0.35:
        fs = [0 if R.random() < 0.3 else x for x in fs]
        if 0 not in fs:
            fs[R.randrange(len(fs))] = 0
    elif c < 0.6:
        fs = [1 for _ in fs]
    S = refill(S, fs)
    D = flat(g.rstride(S))
    if R.random() < 0.2:
        D = [R.choice([1 << 29, (1 << 30) - 1, 1 << 28, -(1 << 29)]) if R.random() < 0.3 else d for d in D]
    return layout(S, refill(S, D))


def coord(Sn):
    c = g.coord_for(Sn, R.choice(['1d', 'rank', 'nat', 'mixed']))

    def neg(n):
        if n[0] == 'int':
            return I(-n[1] - R.choice([0, 1, 2]), n[2]) if R.random() < 0.4 else n
        return ('tuple', [neg(x) for x in n[1]])
    return neg(c)


def one():
    o = R.choice(['coalesce', 'filter', 'complement', 'composition', 'logical_divide', 'right_inverse',
                  'left_inverse', 'make_layout_like', 'make_fragment_like', 'nullspace', 'max_common_vector',
                  'upcast', 'downcast', 'with_shape', 'eval', 'eval', 'eval_swz', 'idx2crd', 'crd2idx',
                  'logical_product', 'blocked_product', 'zipped_divide', 'coalesce_p', 'max_common_layout'])
    L = edge_layout()
    S = L[1]
    if o in ('coalesce', 'filter', 'complement', 'right_inverse', 'left_inverse', 'make_layout_like',
             'make_fragment_like', 'nullspace'):
        return call(o, L)
    if o == 'coalesce_p':
        return call('coalesce', L, g.profile_for(S))
    if o in ('max_common_vector', 'max_common_layout'):
        return call(o, L, edge_layout() if R.random() < 0.5 else layout(pyval(S)))
    if o in ('upcast', 'downcast'):
        return call(o, L, targs=(R.choice([2, 4]),))
    if o == 'with_shape':
        return call(o, L, g.shape_node(g.divisor_shape(max(1, prod(pyval(S))))))
    if o == 'eval':
        if R.random() < 0.2:
            L = composed(L)
        return call('eval', L, coord(S))
    if o == 'eval_swz':
        return call('eval', swz(), I(R.choice([-1, -7, -64, -1000, 1 << 20, (1 << 31) - 1, 12345, -(1 << 20)]),
                                     R.random() < 0.5))
    if o in ('idx2crd', 'crd2idx'):
        D = L[2]
        if R.random() < 0.5:
            return call(o, coord(S), S, D)
        return call(o, coord(S), S)
    if o == 'composition':
        return call(o, L, edge_layout() if R.random() < 0.5 else g.tiler(L))
    if o == 'logical_divide' or o == 'zipped_divide':
        return call(o, L, g.tiler(L))
    return call(o, L, edge_layout())


def main():
    seed, n, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    seen = set()
    with open(out, 'w') as f:
        k = 0
        while k < n:
            e = one()
            s = unparse(e)
            if s in seen or len(s) > 1500:
                continue
            seen.add(s)
            k += 1
            f.write('c4c_%d_%05d\t%s\t%s\n' % (seed, k, e[1], s))


if __name__ == '__main__':
    main()
