#!/usr/bin/env python3
"""Third campaign generator: the under-sampled ops (tuple ops, predicates, mode ops, coords).
usage: c3_gen.py SEED PER_OP OUT.tsv [op,op,...]  -> id<TAB>op<TAB>expr"""
import random, sys
from notation import unparse

R = random.Random(int(sys.argv[1]))
PER = int(sys.argv[2])
VALS = [1] * 8 + [2] * 20 + [4] * 15 + [8] * 10 + [16] * 4 + [32] * 2 + [3] * 6 + [5, 6, 12, 6, 3, 7, 9, 10]
SMALL = [1, 1, 2, 2, 2, 3, 4, 4, 6, 8]

def I(v, s): return ('int', v, s)
def T(xs): return ('tuple', list(xs))

def pstat():
    """static probability profile for one expression"""
    c = R.random()
    return 1.0 if c < 0.4 else 0.0 if c < 0.6 else R.choice([0.3, 0.5, 0.7])

def rtree(depth=0, maxd=2, rank=None, scalar_p=0.25):
    """python shape tree: int or list"""
    if depth == 0 and R.random() < scalar_p:
        return 'x'
    if rank is None:
        rank = (0 if R.random() < 0.04 else R.choice([1, 1, 2, 2, 2, 3, 3, 4])) if depth else R.choice([1, 1, 2, 2, 2, 3, 3, 4])
        if depth == 0 and R.random() < 0.02:
            rank = 0
    return ['x' if (depth >= maxd or R.random() < 0.7) else rtree(depth + 1, maxd) for _ in range(rank)]

def nleaves(t): return 1 if t == 'x' else sum(nleaves(x) for x in t)

def fill(t, vals, ps):
    if t == 'x':
        return I(vals.pop(0), R.random() < ps)
    return T(fill(x, vals, ps) for x in t)

def itup(t=None, vals=VALS, ps=None, zero=0.0):
    if t is None: t = rtree()
    if ps is None: ps = pstat()
    v = [0 if R.random() < zero else R.choice(vals) for _ in range(nleaves(t))]
    return fill(t, v, ps)

def pyv(n):
    if n[0] == 'int': return n[1]
    return [pyv(x) for x in n[1]]

def flat(n): return [n] if n[0] != 'tuple' else [y for x in n[1] for y in flat(x)]
def prodn(n):
    p = 1
    for x in flat(n): p *= x[1]
    return p

def same_tree(n, vals=VALS, ps=None, zero=0.0):
    if ps is None: ps = pstat()
    if n[0] == 'tuple':
        return T(same_tree(x, vals, ps, zero) for x in n[1])
    return I(0 if R.random() < zero else R.choice(vals), R.random() < ps)

def tree_of(n): return 'x' if n[0] != 'tuple' else [tree_of(x) for x in n[1]]

def stride_for(S, ps):
    fs = flat(S)
    k = len(fs)
    d = [0] * k
    if R.random() < 0.65:
        order = list(range(k)); R.shuffle(order) if R.random() < 0.5 else None
        acc = 1
        for j in order:
            d[j] = acc; acc *= max(fs[j][1], 1)
        for j in range(k):
            if R.random() < 0.08: d[j] = 0
    else:
        d = [R.choice([0, 1, 1, 2, 3, 4, 8, 16, 32, 64, 6]) for _ in range(k)]
    vals = list(d)
    def f(n):
        if n[0] == 'tuple': return T(f(x) for x in n[1])
        return I(vals.pop(0), R.random() < ps)
    return f(S)

def layout(S=None, ps=None, maxsize=4096, zero_stride=None):
    if ps is None: ps = pstat()
    while S is None:
        t = rtree(scalar_p=0.15)
        if t == [] : t = 'x'
        S = itup(t, ps=ps)
        if prodn(S) > maxsize: S = None
    ps2 = ps if R.random() < 0.75 else pstat()
    return ('layout', S, stride_for(S, ps2))

def call(name, *args, targs=()): return ('call', name, [str(t) for t in targs], list(args))

def rank(n): return len(n[1]) if n[0] == 'tuple' else 1
def shape_of(L): return L[1]

def mode(n, i): return n[1][i] if n[0] == 'tuple' else n

def coord_in(S, ps, hier=True, under=0.0):
    """a coordinate for shape S: natural (congruent), sometimes 1-D per mode, sometimes with _"""
    if R.random() < under: return ('under',)
    if S[0] == 'tuple':
        if hier and R.random() < 0.25 or not S[1]:
            return I(R.randrange(max(prodn(S), 1)), R.random() < ps)
        return T(coord_in(x, ps, hier, under) for x in S[1])
    return I(R.randrange(max(S[1], 1)), R.random() < ps)

def perturb_tree(n, ps):
    """a different-but-related tree (for predicates)"""
    c = R.random()
    if c < 0.3: return same_tree(n, ps=ps)
    if c < 0.5: return n
    if c < 0.65: return itup(ps=ps)
    if c < 0.8 and n[0] == 'tuple' and n[1]:
        xs = list(n[1]); j = R.randrange(len(xs))
        xs[j] = T([xs[j]]) if R.random() < 0.5 else itup(ps=ps)
        return T(xs)
    if c < 0.9 and n[0] == 'tuple':
        xs = list(n[1]) + [itup('x', ps=ps)] if R.random() < 0.5 else list(n[1])[:-1]
        return T(xs)
    return I(prodn(n) if n[0] == 'tuple' else n[1], R.random() < ps)

G = {}
def gen(f): G[f.__name__[2:]] = f; return f

@gen
def g_zip():
    ps = pstat()
    c = R.random()
    if c < 0.5:
        # rank-2-ish nested profiles zip transposes
        r = R.choice([1, 2, 2, 3])
        inner = [R.choice([1, 2, 2, 3]) for _ in range(r)]
        if R.random() < 0.7: inner = [inner[0]] * r
        t = [['x'] * k if R.random() < 0.9 else 'x' for k in inner]
        S = itup(t, ps=ps)
        if prodn(S) > 65536: S = itup(['x', 'x'], ps=ps)
        return call('zip', layout(S, ps))
    if c < 0.8:
        return call('zip', layout(ps=ps))
    # tuple forms
    a = itup(ps=ps)
    if R.random() < 0.5:
        return call('zip', a)
    return call('zip', a, same_tree(a, ps=ps) if R.random() < 0.7 else itup(ps=ps))

def reduce_arg(zero=0.05):
    return itup(zero=zero, vals=VALS + [0])

@gen
def g_min(): return call('min', reduce_arg())
@gen
def g_max(): return call('max', reduce_arg())
@gen
def g_product(): return call('product', reduce_arg())
@gen
def g_product_each(): 
    a = reduce_arg()
    return call('product_each', a)
@gen
def g_gcd():
    if R.random() < 0.12:
        ps = pstat()
        return call('gcd', itup('x', ps=ps, vals=VALS + [0, 24, 36]), itup('x', ps=ps, vals=VALS + [0, 18]))
    return call('gcd', itup(vals=VALS + [24, 36, 0, 18]))

def pair_ops(zero=0.0, mism=0.2):
    ps = pstat()
    a = itup(ps=ps, zero=zero)
    c = R.random()
    if c < 0.55:
        b = same_tree(a, ps=ps if R.random() < 0.7 else pstat(), zero=zero)
    elif c < 0.7:
        b = itup('x', ps=ps, zero=zero)
    elif c < 0.8 and a[0] == 'tuple':
        b = a; a = itup('x', ps=ps, zero=zero)
    else:
        b = perturb_tree(a, ps)
    return a, b

@gen
def g_round_up():
    a, b = pair_ops(zero=0.03)
    return call('round_up', a, b)
@gen
def g_ceil_div():
    a, b = pair_ops(zero=0.03)
    return call('ceil_div', a, b)
@gen
def g_shape_div():
    ps = pstat()
    a = itup(ps=ps)
    c = R.random()
    if c < 0.35:
        # divisor-friendly scalar
        b = I(R.choice([1, 2, 3, 4, 6, 8, 12, 16, 32, 64, 128, 5]), R.random() < ps)
    elif c < 0.7:
        b = same_tree(a, vals=[1, 1, 2, 2, 4, 3, 8], ps=ps)
    else:
        b = perturb_tree(a, ps)
    return call('shape_div', a, b)
@gen
def g_elem_scale():
    a, b = pair_ops(zero=0.03)
    return call('elem_scale', a, b)
@gen
def g_inner_product():
    a, b = pair_ops(zero=0.05)
    return call('inner_product', a, b)
@gen
def g_weakly_congruent():
    a, b = pair_ops()
    if R.random() < 0.3: a, b = b, a
    return call('weakly_congruent', a, b)
@gen
def g_congruent():
    a, b = pair_ops()
    if R.random() < 0.3: a, b = b, a
    return call('congruent', a, b)
@gen
def g_colex_less():
    a, b = pair_ops()
    return call('colex_less', a, b)
@gen
def g_elem_less():
    a, b = pair_ops()
    return call('elem_less', a, b)
@gen
def g_evenly_divides():
    ps = pstat()
    a = itup(ps=ps)
    c = R.random()
    if c < 0.4:
        b = same_tree(a, vals=[1, 2, 2, 4, 3, 8, 16, 5], ps=ps)
    elif c < 0.6:
        b = I(R.choice([1, 2, 3, 4, 8, 16, 32, 64, 6]), R.random() < ps)
    elif c < 0.8 and a[0] == 'tuple':
        # tiler with layouts for some modes
        xs = []
        for m in a[1][:R.randint(1, len(a[1]))]:
            v = R.choice([1, 2, 4, 8, 3])
            if R.random() < 0.4:
                xs.append(('layout', I(v, R.random() < ps), I(R.choice([1, 2, 0]), R.random() < ps)))
            else:
                xs.append(I(v, R.random() < ps))
        b = T(xs)
    else:
        b = perturb_tree(a, ps)
    return call('evenly_divides', a, b)

@gen
def g_domain_distribute():
    ps = pstat()
    a = itup(ps=ps, vals=[1, 2, 2, 4, 4, 8, 16, 3, 6, 12, 32, 64, 192, 7, 10])
    b = I(R.choice([1, 2, 4, 8, 16, 32, 64, 128, 1024, 3, 6, 12, 48, 5]), R.random() < ps)
    return call('domain_distribute', a, b)

def lay_arg(ps=None):
    c = R.random()
    if c < 0.05:
        return ('composed', ('swz', R.choice([1, 2, 3]), R.choice([0, 2, 3]), R.choice([3, 4])), I(R.choice([0, 0, 4]), R.random() < 0.5), layout(ps=ps))
    return layout(ps=ps)

@gen
def g_shape():
    L = lay_arg()
    c = R.random()
    if c < 0.6 or L[0] != 'layout': return call('shape', L)
    S = L[1]
    tg = [R.randrange(max(rank(S), 1) + (1 if R.random() < 0.05 else 0))]
    m = mode(S, tg[0]) if tg[0] < rank(S) else S
    if R.random() < 0.4 and m[0] == 'tuple' and m[1]: tg.append(R.randrange(len(m[1])))
    return call('shape', L, targs=tg)
@gen
def g_stride():
    L = layout()
    if R.random() < 0.6: return call('stride', L)
    S = L[1]
    tg = [R.randrange(max(rank(S), 1) + (1 if R.random() < 0.05 else 0))]
    m = mode(S, tg[0]) if tg[0] < rank(S) else S
    if R.random() < 0.4 and m[0] == 'tuple' and m[1]: tg.append(R.randrange(len(m[1])))
    return call('stride', L, targs=tg)

def targ_path(S):
    tg = [R.randrange(max(rank(S), 1) + (1 if R.random() < 0.04 else 0))]
    m = mode(S, tg[0]) if tg[0] < rank(S) else S
    while R.random() < 0.45 and m[0] == 'tuple' and m[1] and len(tg) < 3:
        tg.append(R.randrange(len(m[1]))); m = m[1][tg[-1]]
    return tg
@gen
def g_get():
    if R.random() < 0.6:
        L = layout(); return call('get', L, targs=targ_path(L[1]))
    a = itup(t=rtree(scalar_p=0.05))
    return call('get', a, targs=targ_path(a))
@gen
def g_layout():
    L = layout()
    return call('layout', L, targs=targ_path(L[1]))

@gen
def g_take():
    L = layout()
    r = rank(L[1])
    b = R.randrange(0, r + 1); e = R.randrange(b, r + 1)
    if R.random() < 0.04: e = r + 1
    if R.random() < 0.8 and e == b and b < r: e = b + 1
    if R.random() < 0.2:
        a = itup(t=rtree(scalar_p=0.05)); r = rank(a)
        b = R.randrange(0, r + 1); e = R.randrange(b, r + 1)
        if e == b and b < r: e = b + 1
        return call('take', a, targs=[b, e])
    return call('take', L, targs=[b, e])
@gen
def g_select():
    L = layout(); r = rank(L[1])
    k = R.choice([1, 1, 2, 2, 3, 4])
    tg = [R.randrange(max(r, 1) + (1 if R.random() < 0.04 else 0)) for _ in range(k)]
    if R.random() < 0.15:
        a = itup(t=rtree(scalar_p=0.05)); r = rank(a)
        return call('select', a, targs=[R.randrange(max(r, 1)) for _ in range(k)])
    return call('select', L, targs=tg)
@gen
def g_group():
    L = layout(); r = rank(L[1])
    b = R.randrange(0, r + 1); e = R.randrange(b, r + 2) if R.random() < 0.1 else R.randrange(b, r + 1)
    if R.random() < 0.7 and e == b and b < r: e = min(r, b + R.randint(1, 2))
    if R.random() < 0.15:
        a = itup(t=rtree(scalar_p=0.05)); r = rank(a)
        b = R.randrange(0, r + 1); e = R.randrange(b, r + 1)
        return call('group', a, targs=[b, e])
    return call('group', L, targs=[b, e])
@gen
def g_replace():
    L = layout(); r = rank(L[1])
    i = R.randrange(r + (1 if R.random() < 0.08 else 0))
    c = R.random()
    X = layout() if c < 0.75 else itup()
    if c >= 0.9:
        a = itup(t=rtree(scalar_p=0.05))
        return call('replace', a, itup(), targs=[R.randrange(max(rank(a), 1))])
    return call('replace', L, X, targs=[i])

@gen
def g_max_alignment(): return call('max_alignment', layout())
@gen
def g_coshape(): return call('coshape', layout())
@gen
def g_filter_zeros(): return call('filter_zeros', layout())
@gen
def g_coprofile(): return call('coprofile', layout())

def coord_op(name):
    L = layout(maxsize=2048)
    n = prodn(L[1]); ps = pstat()
    v = R.randrange(max(n, 1)) if R.random() < 0.95 else n + R.randrange(4)
    return call(name, L, I(v, R.random() < ps))
@gen
def g_get_1d_coord():
    if R.random() < 0.5: return coord_op('get_1d_coord')
    L = layout(maxsize=2048)
    return call('get_1d_coord', L, coord_in(L[1], pstat()))
@gen
def g_get_flat_coord(): return coord_op('get_flat_coord')
@gen
def g_get_hier_coord(): return coord_op('get_hier_coord')

@gen
def g_slice():
    L = layout(maxsize=4096); ps = pstat()
    c = coord_in(L[1], ps, under=R.choice([0.0, 0.3, 0.5]))
    if R.random() < 0.1: c = ('under',)
    if R.random() < 0.15:
        a = itup(t=rtree(scalar_p=0.05))
        return call('slice', coord_in(a, ps, hier=False, under=0.4), a)
    return call('slice', c, L)
@gen
def g_dice():
    L = layout(maxsize=4096); ps = pstat()
    c = coord_in(L[1], ps, under=R.choice([0.0, 0.3, 0.5]))
    if R.random() < 0.1: c = ('under',)
    if R.random() < 0.15:
        a = itup(t=rtree(scalar_p=0.05))
        return call('dice', coord_in(a, ps, hier=False, under=0.4), a)
    return call('dice', c, L)

@gen
def g_compact_order():
    ps = pstat()
    S = itup(ps=ps)
    k = len(flat(S))
    perm = list(range(k)); R.shuffle(perm)
    if R.random() < 0.2: perm = [R.randrange(k + 1) for _ in range(k)]
    vals = [I(p, R.random() < ps) for p in perm]
    def f(n):
        if n[0] == 'tuple': return T(f(x) for x in n[1])
        return vals.pop(0)
    O = f(S)
    if R.random() < 0.1: O = I(R.randrange(3), R.random() < ps)
    return call('compact_order', S, O)

@gen
def g_unflatten():
    ps = pstat()
    S = itup(t=rtree(scalar_p=0.1), ps=ps)
    fl = flat(S)
    L = ('layout', T(fl) if len(fl) != 1 or R.random() < 0.5 else fl[0], None)
    L = ('layout', L[1], stride_for(L[1], ps))
    tgt = S
    c = R.random()
    if c < 0.15: tgt = same_tree(S, ps=ps)
    elif c < 0.25: tgt = itup(ps=ps)
    if R.random() < 0.1:
        L = layout(ps=ps)
    return call('unflatten', L, tgt)

@gen
def g_make_identity_layout():
    return call('make_identity_layout', itup(vals=VALS))

def main():
    out = sys.argv[3]
    ops = sys.argv[4].split(',') if len(sys.argv) > 4 else sorted(G)
    rows = []
    seen = set()
    for op in ops:
        k = 0; tries = 0
        while k < PER and tries < PER * 20:
            tries += 1
            e = unparse(G[op]())
            if e in seen: continue
            seen.add(e); k += 1
            rows.append((op, e))
    R.shuffle(rows)
    with open(out, 'w') as f:
        for j, (op, e) in enumerate(rows):
            f.write('c3%s_%05d\t%s\t%s\n' % (sys.argv[1], j, op, e))

if __name__ == '__main__':
    main()
