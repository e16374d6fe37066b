#!/usr/bin/env python3
"""Third campaign, second wave: negative strides, composed layouts, identity layouts (basis strides),
nested calls as arguments, zero/size-1 modes, out-of-range indices, deeper nesting.
usage: c3_gen2.py SEED PER_OP OUT.tsv  -> id<TAB>op<TAB>expr"""
import sys
import c3_gen as g
from c3_gen import I, T, call, layout, itup, rtree, pstat, rank, mode, prodn, flat, coord_in, targ_path
from notation import unparse
R = g.R

def neg_layout():
    L = layout()
    S, D = L[1], L[2]
    def f(n):
        if n[0] == 'tuple': return T(f(x) for x in n[1])
        return I(-n[1] if R.random() < 0.4 else n[1], n[2])
    return ('layout', S, f(D))

def zero_shape_layout():
    L = layout()
    S = L[1]
    def f(n):
        if n[0] == 'tuple': return T(f(x) for x in n[1])
        return I(R.choice([0, 1]) if R.random() < 0.25 else n[1], n[2])
    return ('layout', f(S), L[2])

def composed():
    L = layout(ps=R.choice([1.0, 1.0, 0.0, 0.5]))
    return ('composed', ('swz', R.choice([0, 1, 2, 3]), R.choice([0, 1, 2, 3, 4]), R.choice([1, 2, 3, 4, -3])),
            I(R.choice([0, 0, 4, 8, 1]), R.random() < 0.7), L)

def ident():
    return call('make_identity_layout', itup(vals=[1, 2, 2, 3, 4, 4, 8, 16]))

def wrapped():
    """a layout-valued call used as an argument"""
    L = layout(maxsize=1024)
    c = R.random()
    if c < 0.3: return ident()
    if c < 0.5: return call('coalesce', L)
    if c < 0.65: return call('flatten', L)
    if c < 0.8: return call('logical_divide', L, I(R.choice([1, 2, 4]), True))
    return call('make_layout', itup(vals=[1, 2, 3, 4, 8]), R.choice([('tag', 'LayoutLeft'), ('tag', 'LayoutRight')]))

def anylayout():
    c = R.random()
    if c < 0.3: return neg_layout()
    if c < 0.45: return zero_shape_layout()
    if c < 0.6: return composed()
    if c < 0.85: return wrapped()
    return layout(ps=R.choice([0.0, 1.0]))

def shape_guess(A):
    if A[0] == 'layout': return A[1]
    if A[0] == 'composed': return A[3][1]
    if A[1] == 'make_identity_layout': return A[3][0]
    if A[1] == 'make_layout': return A[3][0]
    return A[3][0][1] if A[3][0][0] == 'layout' else I(1, True)

G = {}
def gen(f): G[f.__name__[2:]] = f; return f

for name in ['shape', 'stride', 'coshape', 'max_alignment', 'filter_zeros', 'coprofile', 'zip']:
    def mk(name=name):
        def f():
            A = anylayout()
            if name in ('shape', 'stride') and R.random() < 0.3:
                return call(name, A, targs=targ_path(shape_guess(A)))
            return call(name, A)
        return f
    G[name] = mk()

@gen
def g_get():
    A = anylayout(); return call('get', A, targs=targ_path(shape_guess(A)))
@gen
def g_layout():
    A = anylayout(); return call('layout', A, targs=targ_path(shape_guess(A)))
@gen
def g_take():
    A = anylayout(); r = rank(shape_guess(A))
    b = R.randrange(0, r + 1); e = R.randrange(b, r + 1)
    if e == b and b < r and R.random() < 0.85: e = b + 1
    return call('take', A, targs=[b, e])
@gen
def g_select():
    A = anylayout(); r = rank(shape_guess(A))
    return call('select', A, targs=[R.randrange(max(r, 1)) for _ in range(R.choice([1, 2, 2, 3]))])
@gen
def g_group():
    A = anylayout(); r = rank(shape_guess(A))
    b = R.randrange(0, r + 1); e = R.randrange(b, r + 1)
    return call('group', A, targs=[b, e])
@gen
def g_replace():
    A = anylayout(); r = rank(shape_guess(A))
    X = anylayout() if R.random() < 0.7 else itup()
    return call('replace', A, X, targs=[R.randrange(max(r, 1))])
@gen
def g_unflatten():
    A = anylayout()
    S = shape_guess(A)
    fl = flat(S)
    # regroup the flat leaves
    prof = []
    i = 0
    while i < len(fl):
        k = R.choice([1, 1, 2, 3])
        prof.append(T(fl[i:i + k]) if k > 1 or R.random() < 0.2 else fl[i]); i += k
    return call('unflatten', call('flatten', A) if R.random() < 0.6 else A, T(prof))

def coord_op(name):
    A = anylayout()
    if A[0] == 'call' and A[1] == 'logical_divide': A = layout()
    n = max(prodn(shape_guess(A)), 1)
    v = R.randrange(n) if R.random() < 0.9 else n + R.randrange(3)
    return call(name, A, I(v, R.random() < 0.5))
for name in ['get_1d_coord', 'get_flat_coord', 'get_hier_coord']:
    G[name] = (lambda name=name: coord_op(name))

@gen
def g_slice():
    A = anylayout(); S = shape_guess(A)
    return call('slice', coord_in(S, pstat(), under=R.choice([0.2, 0.4, 0.6])), A)
@gen
def g_dice():
    A = anylayout(); S = shape_guess(A)
    return call('dice', coord_in(S, pstat(), under=R.choice([0.2, 0.4, 0.6])), A)

def deep():
    t = rtree(maxd=4, scalar_p=0.05)
    return itup(t, vals=g.VALS + [0, 1, 1, 64, 128, 11, 13])

for name in ['min', 'max', 'product', 'product_each', 'gcd']:
    G[name] = (lambda name=name: call(name, deep()))

def pair(name, zero=0.08):
    ps = pstat()
    a = itup(rtree(maxd=3, scalar_p=0.2), ps=ps, zero=zero, vals=g.VALS + [64, 128, 11])
    c = R.random()
    if c < 0.6: b = g.same_tree(a, ps=pstat(), zero=zero)
    elif c < 0.8: b = itup('x', ps=ps, zero=zero)
    else: b = g.perturb_tree(a, ps)
    return call(name, a, b)
for name in ['round_up', 'ceil_div', 'shape_div', 'elem_scale', 'inner_product', 'weakly_congruent',
             'congruent', 'colex_less', 'elem_less', 'evenly_divides']:
    G[name] = (lambda name=name: pair(name))

@gen
def g_domain_distribute():
    ps = pstat()
    a = itup(rtree(maxd=3), ps=ps, vals=[1, 2, 2, 4, 4, 8, 16, 3, 6, 12, 32, 64, 5, 7, 9])
    b = I(R.choice([1, 2, 4, 8, 16, 32, 64, 128, 256, 3, 6, 9, 12, 24, 5, 7, 0]), R.random() < 0.85)
    return call('domain_distribute', a, b)
@gen
def g_compact_order():
    return g.g_compact_order()
@gen
def g_make_identity_layout():
    return call('make_identity_layout', itup(rtree(maxd=3), vals=g.VALS + [0]))

def main():
    out = sys.argv[3]; per = int(sys.argv[2])
    rows = []; seen = set()
    for op in sorted(G):
        k = 0; tries = 0
        while k < per and tries < per * 20:
            tries += 1
            e = unparse(G[op]())
            if e in seen: continue
            seen.add(e); k += 1; rows.append((op, e))
    R.shuffle(rows)
    with open(out, 'w') as f:
        for j, (op, e) in enumerate(rows):
            f.write('c3b%s_%05d\t%s\t%s\n' % (sys.argv[1], j, op, e))

if __name__ == '__main__':
    main()
