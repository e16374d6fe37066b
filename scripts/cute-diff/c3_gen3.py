#!/usr/bin/env python3
"""Third campaign, third wave: negative values in the tuple ops and reductions, generic (tuple)
fallbacks of CuTe on composed layouts (filter_zeros, replace, dice, select), 2-argument forms.
usage: c3_gen3.py SEED PER_OP OUT.tsv"""
import sys
import c3_gen as g
from c3_gen import I, T, call, layout, itup, rtree, pstat, rank, flat, coord_in
from notation import unparse
R = g.R
NEG = [-1, -2, -3, -4, -6, -8, -12, 1, 2, 3, 4, 6, 8, 12, 16, 0, 5, -5, 7, -7]

def nt(maxd=2, sp=0.2):
    return itup(rtree(maxd=maxd, scalar_p=sp), vals=NEG)

G = {}
for name in ['min', 'max', 'gcd', 'product', 'product_each']:
    G[name] = (lambda name=name: call(name, nt(3)))
G['gcd2'] = lambda: call('gcd', nt(1, 0.8), nt(1, 0.8))
for name in ['round_up', 'ceil_div', 'shape_div', 'elem_scale', 'inner_product', 'colex_less', 'elem_less',
             'evenly_divides']:
    def mk(name=name):
        def f():
            a = nt()
            b = g.same_tree(a, vals=NEG) if R.random() < 0.7 else itup('x', vals=NEG)
            return call(name, a, b)
        return f
    G[name] = mk()

def comp():
    L = layout(ps=R.choice([1.0, 0.0, 0.5]))
    return ('composed', ('swz', R.choice([0, 1, 2, 3]), R.choice([0, 2, 3, 4]), R.choice([1, 2, 3, -3])),
            I(R.choice([0, 0, 4, 8]), R.random() < 0.7), L)
def c_filter_zeros(): return call('filter_zeros', comp())
def c_replace():
    A = comp(); r = rank(A[3][1])
    X = comp() if R.random() < 0.3 else layout() if R.random() < 0.6 else itup()
    return call('replace', A, X, targs=[R.randrange(r + 1) if R.random() < 0.3 else 0])
def c_dice():
    A = comp()
    c = R.random()
    crd = ('under',) if c < 0.3 else I(R.randrange(4), R.random() < 0.5) if c < 0.6 else coord_in(A[3][1], 0.5, under=0.4)
    return call('dice', crd, A)
def c_select():
    A = comp(); r = rank(A[3][1])
    return call('select', A, targs=[R.randrange(r) for _ in range(R.choice([1, 2, 3]))])
def c_misc():
    A = comp(); name = R.choice(['coshape', 'stride', 'coprofile', 'zip', 'unflatten', 'get_hier_coord',
                                 'get_flat_coord', 'get_1d_coord', 'filter_zeros', 'take', 'group', 'layout', 'get'])
    S = A[3][1]
    if name == 'unflatten': return call(name, A, S)
    if name.startswith('get_'): return call(name, A, I(R.randrange(max(g.prodn(S), 1)), R.random() < 0.5))
    if name == 'filter_zeros': return call(name, A, g.same_tree(S, vals=[0, 1, 2]))
    if name in ('take', 'group'):
        r = rank(S); b = R.randrange(r); return call(name, A, targs=[b, R.randrange(b + 1, r + 1)])
    if name in ('layout', 'get'): return call(name, A, targs=[R.randrange(rank(S))])
    return call(name, A)
def fz2():
    L = layout()
    return call('filter_zeros', L, g.same_tree(L[1], vals=[0, 0, 1, 2], ps=R.choice([0.0, 1.0, 0.5])))
def fzt():
    return call('filter_zeros', itup(vals=[0, 0, 1, 2, 4]), ) if R.random() < 0.5 else \
        (lambda a: call('filter_zeros', a, g.same_tree(a)))(itup(vals=[0, 0, 1, 2, 4]))
G.update(c_filter_zeros=c_filter_zeros, c_replace=c_replace, c_dice=c_dice, c_select=c_select,
         c_misc=c_misc, fz2=fz2, fzt=fzt)

def main():
    out = sys.argv[3]; per = int(sys.argv[2])
    rows = []; seen = set()
    for op in sorted(G):
        k = 0; tries = 0
        while k < per and tries < per * 20:
            tries += 1
            n = G[op]()
            e = unparse(n)
            if e in seen: continue
            seen.add(e); k += 1; rows.append((n[1], e))
    R.shuffle(rows)
    with open(out, 'w') as f:
        for j, (op, e) in enumerate(rows):
            f.write('c3c%s_%05d\t%s\t%s\n' % (sys.argv[1], j, op, e))

if __name__ == '__main__':
    main()
