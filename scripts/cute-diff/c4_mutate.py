#!/usr/bin/env python3
"""Fourth campaign, fifth set: mutants of the public rows of the heavy ops: each leaf's static/dynamic
flag flipped independently, strides negated or zeroed, a size-1 mode inserted, a layout mode wrapped in
one more tuple level.  usage: c4_mutate.py SEED K OUT.tsv  (K mutants per row)"""
import random, sys
from notation import parse, unparse
R = random.Random(int(sys.argv[1]))
K = int(sys.argv[2])
OPS = {'composition', 'eval', 'complement', 'logical_divide', 'coalesce', 'logical_product', 'right_inverse',
       'left_inverse', 'idx2crd', 'crd2idx', 'max_common_vector', 'max_common_layout', 'blocked_product',
       'raked_product', 'tiled_divide', 'zipped_divide', 'flat_divide', 'tiled_product', 'zipped_product',
       'flat_product', 'upcast', 'downcast', 'recast_layout', 'nullspace', 'filter', 'tile_to_shape',
       'make_ordered_layout', 'make_layout_like', 'make_fragment_like', 'with_shape', 'make_layout'}

def flip(n, p):
    if n[0] == 'int':
        return ('int', n[1], (not n[2]) if R.random() < p else n[2])
    if n[0] == 'tuple':
        return ('tuple', [flip(x, p) for x in n[1]])
    return n

def mut_layout(S, D):
    m = R.choice(['flip', 'neg', 'zero', 'one', 'wrap', 'flip'])
    if m == 'flip':
        return flip(S, 0.3), flip(D, 0.3)
    if m in ('neg', 'zero'):
        def f(n):
            if n[0] == 'int':
                return ('int', (-n[1] if m == 'neg' else 0) if R.random() < 0.35 else n[1], n[2])
            return ('tuple', [f(x) for x in n[1]]) if n[0] == 'tuple' else n
        return S, f(D)
    if S[0] != 'tuple':
        S, D = ('tuple', [S]), ('tuple', [D])
    k = R.randrange(len(S[1]) + 1) if m == 'one' else R.randrange(len(S[1]))
    if m == 'one':
        st = R.random() < 0.5
        return (('tuple', S[1][:k] + [('int', 1, st)] + S[1][k:]),
                ('tuple', D[1][:k] + [('int', R.choice([0, 1, 7]), R.random() < 0.5)] + D[1][k:]))
    return (('tuple', S[1][:k] + [('tuple', [S[1][k]])] + S[1][k + 1:]),
            ('tuple', D[1][:k] + [('tuple', [D[1][k]])] + D[1][k + 1:]))

def mutate(n):
    if n[0] == 'layout':
        if R.random() < 0.7:
            S, D = mut_layout(n[1], n[2])
            return ('layout', S, D)
        return n
    if n[0] == 'call':
        return ('call', n[1], n[2], [mutate(a) for a in n[3]])
    if n[0] == 'tuple':
        return ('tuple', [mutate(x) for x in n[1]])
    if n[0] == 'composed':
        return ('composed', n[1], n[2], mutate(n[3]))
    if n[0] == 'int' and R.random() < 0.2:
        return ('int', n[1], not n[2])
    return n

seen = set()
with open(sys.argv[3], 'w') as f:
    k = 0
    for l in open('/work/shared/oracle/public.tsv'):
        r = l.rstrip('\n').split('\t')
        if r[1] not in OPS: continue
        try:
            t = parse(r[3])
        except Exception:
            continue
        for _ in range(K):
            s = unparse(mutate(t))
            if s in seen or s == r[3]: continue
            seen.add(s); k += 1
            f.write('c4e_%05d\t%s\t%s\n' % (k, r[1], s))
