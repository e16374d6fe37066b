#!/usr/bin/env python3
"""Fourth campaign, fourth set: plain-integer and integer-tuple tilers in divides/products, profiles that
are integers other than 1 or deeper than the layout, nested calls as arguments of the heavy ops
(composition / logical_divide / coalesce / complement / make_layout results), rank-1 tuple layouts
(`(_3):(_1)`) against plain `_3:_1`.
usage: c4_gen4.py SEED N OUT.tsv"""
import sys
import c4_gen as g
from c4_gen import R, I, call, layout, composed, node, flags, flat, refill, pyval, prod
from notation import unparse


def int_tiler(A):
    S = g.shape_of(A)
    n = prod(pyval(S))
    c = R.random()
    if c < 0.4:
        return I(R.choice([1, 2, 4, n, 3]), R.random() < 0.6)
    modes = S[1] if S[0] == 'tuple' else [S]
    return ('tuple', [R.choice([I(R.choice([1, 2, prod(pyval(m))]), R.random() < 0.6), ('under',)])
                      for m in modes[:R.randint(1, len(modes))]])


def rank1(L):
    return ('layout', ('tuple', [L[1]]), ('tuple', [L[2]])) if L[1][0] == 'int' else L


def nested():
    A = layout(maxsize=1024)
    o = R.choice(['composition', 'logical_divide', 'coalesce', 'complement', 'make_layout', 'right_inverse',
                  'zipped_divide', 'logical_product', 'filter'])
    if o in ('coalesce', 'complement', 'right_inverse', 'filter'):
        return call(o, A)
    if o == 'make_layout':
        return call(o, A, layout(maxsize=16))
    if o == 'logical_product':
        return call(o, A, layout(maxsize=8))
    return call(o, A, g.tiler(A))


def one():
    o = R.choice(['div', 'div', 'prod', 'coalesce_p', 'nest', 'nest', 'rank1', 'rank1', 'eval_nest'])
    if o == 'div':
        A = layout() if R.random() < 0.85 else composed()
        return call(R.choice(['logical_divide', 'zipped_divide', 'tiled_divide', 'flat_divide', 'composition']),
                    A, int_tiler(A))
    if o == 'prod':
        A = layout(maxsize=1024)
        return call(R.choice(['logical_product', 'zipped_product', 'tiled_product', 'flat_product',
                              'blocked_product', 'raked_product']), A, int_tiler(A))
    if o == 'coalesce_p':
        L = layout()
        p = g.profile_for(L[1])

        def vary(n):
            if n[0] == 'int':
                return I(R.choice([0, 1, 2, 7]), R.random() < 0.7)
            return ('tuple', [vary(x) for x in n[1]] + ([('tuple', [I(1, True)])] if R.random() < 0.1 else []))
        return call('coalesce', L, vary(p) if R.random() < 0.6 else ('tuple', [p]))
    if o == 'nest':
        inner = nested()
        op2 = R.choice(['composition', 'logical_divide', 'coalesce', 'complement', 'right_inverse', 'left_inverse',
                        'make_layout_like', 'make_fragment_like', 'filter', 'nullspace', 'upcast', 'downcast',
                        'logical_product', 'max_common_vector'])
        if op2 in ('composition', 'logical_divide'):
            return call(op2, inner, layout(maxsize=16))
        if op2 in ('upcast', 'downcast'):
            return call(op2, inner, targs=(2,))
        if op2 == 'logical_product':
            return call(op2, inner, layout(maxsize=8))
        if op2 == 'max_common_vector':
            return call(op2, inner, inner)
        return call(op2, inner)
    if o == 'rank1':
        A = rank1(layout(rank=1, depth=1))
        B = rank1(layout(rank=1, depth=1, maxsize=16))
        op2 = R.choice(['composition', 'logical_divide', 'logical_product', 'complement', 'coalesce',
                        'right_inverse', 'left_inverse', 'blocked_product', 'raked_product', 'zipped_divide',
                        'tiled_product', 'make_fragment_like', 'with_shape', 'max_common_layout'])
        if op2 in ('complement', 'coalesce', 'right_inverse', 'left_inverse', 'make_fragment_like'):
            return call(op2, A)
        if op2 == 'with_shape':
            return call(op2, A, node([prod(pyval(A[1]))], flags(1)))
        return call(op2, A, B)
    inner = nested()
    return call('eval', inner, I(R.randrange(64), R.random() < 0.5))


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
            f.write('c4d_%d_%05d\t%s\t%s\n' % (seed, k, e[1], s))


if __name__ == '__main__':
    main()
