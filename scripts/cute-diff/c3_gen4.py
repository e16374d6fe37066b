#!/usr/bin/env python3
"""Third campaign, fourth wave: mismatched coordinates and template arguments (too deep, out of
range, wrong rank), multi-argument zip, `_` in tilers, size-0/1 modes.
usage: c3_gen4.py SEED PER_OP OUT.tsv"""
import sys
import c3_gen as g
from c3_gen import I, T, call, layout, itup, rtree, pstat, rank, flat, coord_in, prodn
from notation import unparse
R = g.R

def bad_coord(S, ps):
    c = coord_in(S, ps, under=R.choice([0.0, 0.3, 0.6]))
    k = R.random()
    if k < 0.3 and c[0] == 'tuple':
        xs = list(c[1]) + [I(0, R.random() < ps)] if R.random() < 0.5 else list(c[1])[:-1]
        return T(xs)
    if k < 0.6:
        # nest one level too deep
        def deepen(n):
            if n[0] == 'tuple' and n[1]:
                xs = list(n[1]); j = R.randrange(len(xs)); xs[j] = deepen(xs[j]); return T(xs)
            return T([n, ('under',) if R.random() < 0.5 else I(0, True)])
        return deepen(c)
    return c

G = {}
def sl(name):
    L = layout(maxsize=2048); return call(name, bad_coord(L[1], pstat()), L)
G['slice'] = lambda: sl('slice')
G['dice'] = lambda: sl('dice')
def crdop(name):
    L = layout(maxsize=2048); n = prodn(L[1]); ps = pstat()
    c = R.random()
    idx = I(-R.randint(1, 5), R.random() < ps) if c < 0.15 else I(n + R.randrange(8), R.random() < ps) if c < 0.5 else I(R.randrange(max(n, 1)), R.random() < ps)
    return call(name, L, idx)
for nm in ['get_1d_coord', 'get_flat_coord', 'get_hier_coord']:
    G[nm] = (lambda nm=nm: crdop(nm))
def deep_path(name, lay=True):
    A = layout() if lay else itup(rtree(maxd=3, scalar_p=0.1))
    S = A[1] if lay else A
    tg = []
    m = S
    for _ in range(R.choice([1, 2, 3, 3, 4])):
        r = max(rank(m) if m[0] == "tuple" else 1, 1)
        i = R.randrange(r + (1 if R.random() < 0.15 else 0))
        tg.append(i)
        m = m[1][i] if m[0] == 'tuple' and i < len(m[1]) else m
    return call(name, A, targs=tg)
G['get'] = lambda: deep_path('get', R.random() < 0.6)
G['layout'] = lambda: deep_path('layout')
G['shape'] = lambda: deep_path('shape')
G['stride'] = lambda: deep_path('stride')
def rng(name):
    L = layout(); r = rank(L[1])
    b = R.randrange(r + 2); e = R.randrange(r + 3)
    return call(name, L if R.random() < 0.8 else itup(rtree(scalar_p=0.1)), targs=[b, e])
G['take'] = lambda: rng('take')
G['group'] = lambda: rng('group')
def sel():
    L = layout(); r = rank(L[1])
    return call('select', L, targs=[R.randrange(max(r, 1) + 1) for _ in range(R.choice([1, 2, 3, 5]))])
G['select'] = sel
def rep():
    L = layout(); r = rank(L[1])
    return call('replace', L, layout(), targs=[R.randrange(r + 2)])
G['replace'] = rep
def zipn():
    ps = pstat()
    A = layout(ps=ps)
    B = ('layout', g.same_tree(A[1], ps=ps), g.stride_for(A[1], ps)) if R.random() < 0.6 else layout(ps=ps)
    args = [A, B] + ([layout(ps=ps)] if R.random() < 0.3 else [])
    return call('zip', *args)
G['zip'] = zipn
def evd():
    ps = pstat(); a = itup(ps=ps)
    xs = []
    for m in (a[1] if a[0] == 'tuple' else [a]):
        c = R.random()
        xs.append(('under',) if c < 0.3 else I(R.choice([1, 2, 3, 4, 8, 0]), R.random() < ps) if c < 0.7
                  else ('layout', I(R.choice([1, 2, 4]), R.random() < ps), I(R.choice([1, 2, 0]), True)))
    if R.random() < 0.2: xs = xs[:-1]
    return call(R.choice(['evenly_divides', 'ceil_div']), a, T(xs) if len(xs) != 1 or R.random() < 0.5 else xs[0])
G['evd'] = evd
def uf():
    ps = pstat(); S = itup(rtree(scalar_p=0.0), ps=ps)
    fl = flat(S)
    L = ('layout', T(fl), g.stride_for(T(fl), ps))
    prof = g.same_tree(S) if R.random() < 0.5 else itup()
    return call('unflatten', L, prof)
G['unflatten'] = uf
def co():
    ps = pstat(); S = itup(ps=ps, vals=g.VALS + [0])
    k = len(flat(S))
    O = g.same_tree(S, vals=[0, 1, 2, 3, 4, 5], ps=ps) if R.random() < 0.6 else itup(ps=ps, vals=[0, 1, 2, 3])
    return call('compact_order', S, O)
G['compact_order'] = co
G['make_identity_layout'] = lambda: call('make_identity_layout', itup(rtree(maxd=3), vals=[0, 1, 1, 2, 3, 4, 8]))
def fz():
    return call(R.choice(['filter_zeros', 'coprofile', 'coshape', 'max_alignment']), g.layout(g.itup(rtree(maxd=3), vals=[0, 1, 1, 2, 4, 8, 3])))
G['fz'] = fz

def main():
    out = sys.argv[3]; per = int(sys.argv[2])
    rows = []; seen = set()
    for op in sorted(G):
        k = 0; tries = 0
        while k < per and tries < per * 20:
            tries += 1
            n = G[op](); e = unparse(n)
            if e in seen: continue
            seen.add(e); k += 1; rows.append((n[1], e))
    R.shuffle(rows)
    with open(out, 'w') as f:
        for j, (op, e) in enumerate(rows):
            f.write('c3d%s_%05d\t%s\t%s\n' % (sys.argv[1], j, op, e))

if __name__ == '__main__':
    main()
