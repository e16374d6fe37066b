#!/usr/bin/env python3
"""Fresh random expressions (independent of the public rows).
usage: gen2.py SEED N OUT.tsv  -> id<TAB>op<TAB>expr"""
import random, sys
from notation import compact_strides, flat, prod, random_shape, refill, unparse

R = random.Random(int(sys.argv[1]))
VALS = [1] * 6 + [2] * 25 + [4] * 20 + [8] * 12 + [16] * 5 + [32] * 3 + [3] * 6 + [5, 6, 7, 9, 10, 12, 24, 6, 12, 3]


def I(v, s):
    return ('int', v, s)


def rshape(maxsize=4096, depth=0, rank=None):
    """returns python nested list/int"""
    return random_shape(R, VALS, 0.6, 0.25, depth, rank)


def rstride(S):
    fs = flat(S)
    k = len(fs)
    c = R.random()
    if c < 0.7:
        order = list(range(k))
        if R.random() < 0.75:
            R.shuffle(order)
        d = compact_strides(R, fs, order, 0.07, [2, 3], 0.3)
    else:
        d = [R.choice([0, 1, 1, 2, 4, 8, 16, 32, 3, 6, 12, 64]) for _ in range(k)]
    return refill(S, d)


def flags(k):
    c = R.random()
    if c < 0.45:
        return [True] * k
    if c < 0.65:
        return [False] * k
    return [R.random() < 0.5 for _ in range(k)]


def node(t, fl):
    if isinstance(t, int):
        return I(t, fl.pop(0))
    return ('tuple', [node(x, fl) for x in t])


def layout(S=None, sf=None):
    if S is None:
        S = rshape()
        while prod(S) > 4096:
            S = rshape()
    D = rstride(S)
    k = len(flat(S))
    sf = sf or flags(k)
    df = list(sf) if R.random() < 0.6 else flags(k)
    return ('layout', node(S, list(sf)), node(D, list(df)))


def shape_node(S=None):
    if S is None:
        S = rshape()
    return node(S, flags(len(flat(S))))


def divisor_shape(n):
    """random shape (flat, rank 1-3) whose product divides n (or sometimes not)"""
    divs = [d for d in range(1, n + 1) if n % d == 0]
    tgt = R.choice(divs) if R.random() < 0.85 else R.choice(VALS)
    fs = []
    rem = tgt
    for _ in range(R.choice([1, 1, 2, 2, 3])):
        ds = [d for d in range(1, rem + 1) if rem % d == 0]
        d = R.choice(ds)
        fs.append(d)
        rem //= d
    if rem > 1:
        fs.append(rem)
    return fs[0] if len(fs) == 1 else fs


def tiler(L):
    S = L[1]
    modes = S[1] if S[0] == 'tuple' else [S]
    r = R.randint(1, len(modes))
    if R.random() < 0.35:
        # a single layout
        B = layout(divisor_shape(prod(flatv(S))))
        return B
    out = []
    for m in modes[:r]:
        c = R.random()
        n = prod(flatv(m))
        if c < 0.15:
            out.append(('under',))
        elif c < 0.55:
            out.append(layout(divisor_shape(n)))
        else:
            out.append(node(divisor_shape(n), flags(3)[:1] * 4))
    return ('tuple', out)


def flatv(n):
    if n[0] == 'int':
        return [n[1]]
    if n[0] == 'tuple':
        return [v for x in n[1] for v in flatv(x)]
    return []


def call(name, *args, targs=()):
    return ('call', name, [str(t) for t in targs], list(args))


def gen_one():
    op = R.choice(['composition'] * 8 + ['logical_divide'] * 3 + ['complement'] * 3 + ['coalesce'] * 2 +
                  ['logical_product'] * 3 + ['right_inverse'] * 2 + ['left_inverse'] * 2 +
                  ['zipped_divide', 'tiled_divide', 'flat_divide', 'zipped_product', 'tiled_product', 'flat_product',
                   'blocked_product', 'raked_product', 'max_common_vector', 'max_common_layout', 'upcast', 'downcast',
                   'recast_layout', 'nullspace', 'filter', 'tile_to_shape', 'make_ordered_layout', 'make_layout_like',
                   'make_fragment_like', 'with_shape', 'compact_col_major', 'compact_row_major', 'coalesce_profile'])
    A = layout()
    if op == 'composition':
        n = prod(flatv(A[1]))
        if R.random() < 0.6:
            B = layout(divisor_shape(n))
        else:
            B = tiler(A)
        return op, call(op, A, B)
    if op in ('logical_divide', 'zipped_divide', 'tiled_divide', 'flat_divide'):
        return op, call(op, A, tiler(A))
    if op == 'complement':
        if R.random() < 0.5:
            return op, call(op, A)
        return op, call(op, A, I(R.choice([16, 32, 64, 24, 48, 100, 128, 256, 1024]), R.random() < 0.5))
    if op == 'coalesce':
        return op, call(op, A)
    if op == 'coalesce_profile':
        S = A[1]
        prof = ('tuple', [I(1, True) for _ in S[1]]) if S[0] == 'tuple' else I(1, True)
        return 'coalesce', call('coalesce', A, prof)
    if op in ('logical_product', 'zipped_product', 'tiled_product', 'flat_product', 'blocked_product', 'raked_product'):
        B = layout(None)
        if op in ('blocked_product', 'raked_product') and R.random() < 0.7:
            # same rank
            S = A[1]
            r = len(S[1]) if S[0] == 'tuple' else 1
            Sb = [R.choice([1, 2, 2, 3, 4]) for _ in range(r)]
            B = layout(Sb if r > 1 else Sb[0])
        return op, call(op, A, B)
    if op in ('right_inverse', 'left_inverse', 'nullspace', 'filter', 'make_layout_like', 'make_fragment_like'):
        return op, call(op, A)
    if op in ('max_common_vector', 'max_common_layout'):
        B = layout(R.choice([eval_shape(A), None]))
        return op, call(op, A, B)
    if op in ('upcast', 'downcast'):
        return op, call(op, A, targs=(R.choice([2, 4, 8]),))
    if op == 'recast_layout':
        a, b = R.choice([(4, 8), (8, 4), (8, 16), (16, 8), (16, 32), (32, 16), (8, 32), (32, 8), (6, 4), (4, 6), (6, 8), (8, 6)])
        return op, call(op, A, targs=(a, b))
    if op == 'tile_to_shape':
        S = A[1]
        modes = S[1] if S[0] == 'tuple' else [S]
        tgt = [prod(flatv(m)) * R.choice([1, 1, 2, 3, 4]) for m in modes]
        tn = shape_node(tgt if len(tgt) > 1 else tgt[0])
        if R.random() < 0.3 and len(tgt) > 1:
            perm = list(range(len(tgt)))
            R.shuffle(perm)
            return op, call(op, A, tn, node(perm, flags(len(perm))))
        return op, call(op, A, tn)
    if op == 'make_ordered_layout':
        S = rshape()
        k = len(flat(S))
        perm = list(range(k))
        R.shuffle(perm)
        return op, call(op, shape_node(S), node(refill(S, perm), flags(k)))
    if op in ('compact_col_major', 'compact_row_major'):
        return op, call(op, shape_node())
    if op == 'with_shape':
        n = prod(flatv(A[1]))
        return op, call(op, A, shape_node(divisor_shape(n) if R.random() < 0.3 else factor(n)))
    raise ValueError(op)


def factor(n):
    fs = []
    while n > 1:
        ds = [d for d in range(2, n + 1) if n % d == 0]
        d = R.choice(ds[:4])
        fs.append(d)
        n //= d
    if not fs:
        return 1
    return fs if len(fs) > 1 else fs[0]


def eval_shape(A):
    def back(n):
        if n[0] == 'int':
            return n[1]
        return [back(x) for x in n[1]]
    return back(A[1])


def main():
    N = int(sys.argv[2])
    seen = set()
    with open(sys.argv[3], 'w') as f:
        k = 0
        while k < N:
            op, e = gen_one()
            s = unparse(e)
            if s in seen or len(s) > 400:
                continue
            seen.add(s)
            k += 1
            f.write('f%s_%d\t%s\t%s\n' % (sys.argv[1], k, op, s))


if __name__ == '__main__':
    main()
