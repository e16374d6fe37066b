#!/usr/bin/env python3
"""Second campaign generator: composed layouts, tilers, complement cotargets, hierarchical coords,
slice/dice at nesting levels, mode ops on nested layouts, identity layouts / basis strides.
usage: c2_gen.py SEED N OUT.tsv -> id<TAB>op<TAB>expr"""
import random, sys, os
DYN = float(os.environ.get('C2_DYNOFF', '0.15'))
WEIGHTS = dict(x.split('=') for x in os.environ.get('C2_W', '').split(',') if x)
from notation import flat, prod, random_shape, refill, unparse

R = random.Random(int(sys.argv[1]))
VALS = [1] * 5 + [2] * 25 + [4] * 20 + [8] * 12 + [16] * 5 + [32] * 2 + [3] * 5 + [5, 6, 12, 6, 3]
P2 = [1, 2, 2, 2, 4, 4, 4, 8, 8, 16, 32]

def I(v, s): return ('int', v, s)

def rshape(depth=0, rank=None, vals=VALS):
    return random_shape(R, vals, 0.5, 0.3, depth, rank)

def rstride(S, compact=0.7):
    fs = flat(S); k = len(fs)
    if R.random() < compact:
        order = list(range(k))
        if R.random() < 0.6: R.shuffle(order)
        d = [0] * k; acc = 1
        for j in order:
            if R.random() < 0.05: acc *= R.choice([2, 3])
            d[j] = acc; acc *= fs[j]
        if R.random() < 0.15:
            for j in range(k):
                if R.random() < 0.3: d[j] = 0
    else:
        d = [R.choice([0, 1, 1, 2, 4, 8, 16, 32, 3, 64]) for _ in range(k)]
    return refill(S, d)

def flags(k, pstatic=None):
    c = R.random() if pstatic is None else pstatic
    if c < 0.5: return [True] * k
    if c < 0.65: return [False] * k
    return [R.random() < 0.5 for _ in range(k)]

def node(t, fl):
    if isinstance(t, int): return I(t, fl.pop(0))
    return ('tuple', [node(x, fl) for x in t])

def gsize():
    while True:
        S = rshape()
        if prod(S) <= 2048: return S

def layout(S=None, compact=0.7, pstatic=None, vals=VALS):
    if S is None:
        while True:
            S = rshape(vals=vals)
            if prod(S) <= 2048: break
    D = rstride(S, compact)
    k = len(flat(S))
    sf = flags(k, pstatic)
    df = list(sf) if R.random() < 0.7 else flags(k, pstatic)
    return ('layout', node(S, list(sf)), node(D, list(df)))

def pyshape(n):
    if n[0] == 'int': return n[1]
    return [pyshape(x) for x in n[1]]

def shape_node(S=None, pstatic=None):
    if S is None: S = rshape()
    return node(S, flags(len(flat(S)), pstatic))

def divisor_shape(n):
    divs = [d for d in range(1, n + 1) if n % d == 0]
    tgt = R.choice(divs) if R.random() < 0.9 else R.choice(VALS)
    fs = []; rem = tgt
    for _ in range(R.choice([1, 1, 2, 2, 3])):
        ds = [d for d in range(1, rem + 1) if rem % d == 0]
        d = R.choice(ds); fs.append(d); rem //= d
    if rem > 1: fs.append(rem)
    return fs[0] if len(fs) == 1 else fs

def sublayout(n, compact=0.8):
    """layout whose shape divides n"""
    return layout(divisor_shape(n), compact)

def tiler_for(modenode, depth=0):
    """a tiler element for a mode of a layout's shape (nested if the mode is a tuple, sometimes)"""
    n = prod(pyshape(modenode))
    c = R.random()
    if modenode[0] == 'tuple' and depth < 2 and c < 0.3:
        return ('tuple', [tiler_for(m, depth + 1) for m in modenode[1][:R.randint(1, len(modenode[1]))]])
    c = R.random()
    if c < 0.15: return ('under',)
    if c < 0.6: return sublayout(n)
    ds = divisor_shape(n)
    st = R.random() < 0.6
    return I(ds, st) if isinstance(ds, int) else (node(ds, [st] * 8) if R.random() < 0.3 else I(prod(ds), st))

def tiler(A):
    S = A[1]
    if R.random() < 0.25:
        return sublayout(prod(pyshape(S)))
    modes = S[1] if S[0] == 'tuple' else [S]
    r = R.randint(1, len(modes))
    return ('tuple', [tiler_for(m) for m in modes[:r]])

def call(name, *args, targs=()):
    return ('call', name, [str(t) for t in targs], list(args))

def swz():
    b = R.choice([0, 1, 1, 2, 2, 3, 3])
    m = R.choice([0, 1, 2, 3, 4])
    s = R.choice(range(max(b, 1), 6)) * R.choice([1, 1, -1])
    return ('swz', b, m, s)

def composed(L=None, off=None):
    if L is None:
        L = layout(pstatic=R.choice([0.0, 0.0, 0.0, 0.9]), vals=[1, 2, 2, 2, 4, 4, 4, 8, 8, 16, 32])
    if off is None:
        c = R.random()
        off = I(0, True) if c < 0.6 else I(0, False) if c < 0.6 + DYN else I(R.choice([1, 2, 4, 8, 16, 32, 64, 7]), R.random() < 1 - DYN)
    return ('composed', swz(), off, L)

def shape_of(L):
    if L[0] == 'composed': return L[3][1]
    return L[1]

def rank_of(L):
    S = shape_of(L)
    return len(S[1]) if S[0] == 'tuple' else 1

def coord_for(Snode, mode=None, allow_under=0.0, hier=None):
    """random coordinate: natural (congruent), or per-mode ints, or 1-D"""
    S = pyshape(Snode)
    if mode is None:
        mode = R.choice(['1d', 'rank', 'nat', 'nat', 'mixed'])
    st = R.random() < 0.5
    if mode == '1d' or isinstance(S, int):
        v = R.randrange(max(prod(S), 1))
        if allow_under and R.random() < allow_under: return ('under',)
        return I(v, st)
    def nat(s, partial):
        if allow_under and R.random() < allow_under: return ('under',)
        if isinstance(s, int): return I(R.randrange(max(s, 1)), st if R.random() < 0.8 else not st)
        if partial and R.random() < 0.4: return I(R.randrange(max(prod(s), 1)), st)
        return ('tuple', [nat(x, partial) for x in s])
    if mode == 'rank':
        return ('tuple', [I(R.randrange(max(prod(x), 1)), st) if not (allow_under and R.random() < allow_under) else ('under',) for x in S])
    if mode == 'nat':
        return nat(S, False)
    return nat(S, True)

def basis_layout():
    S = rshape(vals=[1, 2, 2, 3, 4, 4, 8])
    while prod(S) > 512: S = rshape(vals=[1, 2, 2, 3, 4, 4, 8])
    k = len(flat(S))
    nm = R.choice([1, 2, 2, 3])
    strides = []
    for j in range(k):
        v = R.choice([1, 1, 1, 2, 4, 0]) if R.random() < 0.9 else 3
        m = [R.randrange(nm)]
        if R.random() < 0.15: m.append(R.randrange(2))
        strides.append(('basis', I(v, True), m))
    sf = flags(k)
    def fill(t):
        if isinstance(t, int): return strides.pop(0)
        return ('tuple', [fill(x) for x in t])
    return ('layout', node(S, sf), fill(S))

def profile_for(Snode):
    if Snode[0] == 'int' or R.random() < 0.25:
        return I(1, R.random() < 0.7)
    return ('tuple', [profile_for(m) for m in Snode[1][:R.randint(1, len(Snode[1]))]])

OPS = {}
def op(w):
    def d(f): OPS[f.__name__] = (w, f); return f
    return d

# ---------------- composed layouts
@op(6)
def c_eval():
    L = composed()
    return 'eval', call('eval', L, coord_for(L[3][1]))
@op(5)
def c_comp_left():
    L = composed()
    B = sublayout(prod(pyshape(L[3][1]))) if R.random() < 0.5 else tiler(L[3])
    return 'composition', call('composition', L, B)
@op(3)
def c_comp_right():
    L = composed(off=I(0, True) if R.random() < 0.85 else None)
    A = layout()
    return 'composition', call('composition', A, L)
@op(2)
def c_comp_swz():
    return 'composition', call('composition', swz(), layout(pstatic=0.0))
@op(3)
def c_coalesce():
    L = composed()
    if R.random() < 0.4: return 'coalesce', call('coalesce', L, profile_for(L[3][1]))
    return 'coalesce', call('coalesce', L)
@op(4)
def c_slice():
    L = composed()
    o = R.choice(['slice', 'slice_and_offset', 'slice', 'slice_and_offset', 'dice'])
    return o, call(o, coord_for(L[3][1], allow_under=0.4), L)
@op(4)
def c_cast():
    L = composed()
    o = R.choice(['upcast', 'downcast', 'recast_layout'])
    if o == 'recast_layout':
        a, b = R.choice([(8, 16), (16, 8), (16, 32), (32, 16), (8, 32), (32, 8), (4, 8), (8, 4)])
        return o, call(o, L, targs=(a, b))
    return o, call(o, L, targs=(R.choice([2, 4, 8]),))
@op(1)
def s_cast():
    o = R.choice(['upcast', 'downcast', 'right_inverse', 'left_inverse'])
    if o in ('upcast', 'downcast'):
        return o, call(o, swz(), targs=(R.choice([2, 4, 8]),))
    return o, call(o, swz())
@op(3)
def c_inverse():
    L = composed(off=I(0, True) if R.random() < 0.8 else None)
    o = R.choice(['right_inverse', 'left_inverse'])
    return o, call(o, L)
@op(4)
def c_divide():
    L = composed()
    o = R.choice(['logical_divide', 'zipped_divide', 'tiled_divide', 'flat_divide', 'logical_divide'])
    return o, call(o, L, tiler(L[3]))
@op(3)
def c_product():
    L = composed()
    o = R.choice(['logical_product', 'logical_product', 'zipped_product', 'blocked_product', 'raked_product', 'tiled_product'])
    B = layout(vals=[1, 2, 2, 3, 4]) if o not in ('blocked_product', 'raked_product') else layout(
        [R.choice([1, 2, 2, 3, 4]) for _ in range(rank_of(L))] if rank_of(L) > 1 else R.choice([2, 3, 4]))
    return o, call(o, L, B)
@op(4)
def c_modes():
    L = composed()
    r = rank_of(L)
    o = R.choice(['get', 'take', 'size', 'cosize', 'shape', 'rank', 'depth', 'flatten', 'group', 'append', 'select', 'complement', 'complement', 'filter', 'tile_to_shape', 'layout'])
    if o == 'get': return o, call(o, L, targs=(R.randrange(r + (R.random() < 0.1)),))
    if o in ('take', 'group'):
        b = R.randrange(r + 1); e = R.randint(b, r)
        return o, call(o, L, targs=(b, e))
    if o == 'select':
        return o, call(o, L, targs=tuple(R.randrange(r) for _ in range(R.randint(1, 3))))
    if o in ('size', 'cosize', 'shape') and R.random() < 0.3:
        return o, call(o, L, targs=(R.randrange(r),))
    if o == 'append': return o, call(o, L, layout(R.choice([2, 4]), pstatic=0.0))
    if o == 'complement':
        if R.random() < 0.5: return o, call(o, L)
        return o, call(o, L, I(R.choice([64, 128, 256, 512, 1024, 4096]), R.random() < 0.6))
    if o == 'tile_to_shape':
        S = pyshape(L[3][1]); S = S if isinstance(S, list) else [S]
        return o, call(o, L, shape_node([x * R.choice([1, 2, 4]) for x in S], 0.0))
    if o == 'layout':
        return o, call(o, L, targs=(R.randrange(r),))
    return o, call(o, L)

# ---------------- tilers as second argument
@op(8)
def t_divide():
    A = layout()
    o = R.choice(['logical_divide', 'zipped_divide', 'tiled_divide', 'flat_divide', 'logical_divide', 'composition', 'composition'])
    return o, call(o, A, tiler(A))
@op(4)
def t_product():
    A = layout(vals=[1, 2, 2, 3, 4, 8])
    o = R.choice(['logical_product', 'zipped_product', 'tiled_product', 'flat_product'])
    B = layout(vals=[1, 2, 2, 3, 4])
    if R.random() < 0.6:
        r = rank_of(A)
        modes = []
        for j in range(R.randint(1, r)):
            c = R.random()
            modes.append(('under',) if c < 0.2 else layout(R.choice([1, 2, 3, 4, [2, 2]]), pstatic=R.choice([0.0, 0.9])) if c < 0.8 else I(R.choice([2, 3, 4]), R.random() < 0.6))
        B = ('tuple', modes)
    return o, call(o, A, B)

# ---------------- complement with cotarget
@op(5)
def complement_ct():
    A = layout(pstatic=R.choice([0.0, 0.0, 0.6, 0.9]), vals=[1, 2, 2, 4, 4, 8, 3])
    cs = 1
    c = R.random()
    st = R.random() < 0.6
    if c < 0.5:
        ct = I(R.choice([1, 2, 4, 8, 16, 32, 64, 128, 256, 1024, 24, 48, 96, 100, 7]), st)
    elif c < 0.85:
        ct = node([R.choice([2, 4, 8, 16, 32, 3]) for _ in range(R.randint(1, 3))], flags(3))
    else:
        ct = node([[R.choice([2, 4, 8]), R.choice([2, 4])], R.choice([4, 8, 16])], flags(3))
    return 'complement', call('complement', A, ct)

# ---------------- hierarchical coords
@op(7)
def coords():
    A = layout()
    o = R.choice(['eval', 'eval', 'crd2idx', 'crd2idx', 'idx2crd', 'idx2crd', 'get_hier_coord', 'get_flat_coord', 'get_1d_coord'])
    S = A[1]
    if o == 'eval': return o, call(o, A, coord_for(S))
    if o == 'crd2idx':
        if R.random() < 0.2: return o, call(o, coord_for(S), S)
        return o, call(o, coord_for(S), S, A[2])
    if o == 'idx2crd':
        if R.random() < 0.3: return o, call(o, coord_for(S), S, A[2])
        return o, call(o, coord_for(S, mode=R.choice(['1d', '1d', 'rank', 'mixed'])), S)
    return o, call(o, A, coord_for(S, mode='1d'))

@op(6)
def slicing():
    A = layout()
    o = R.choice(['slice', 'dice', 'slice_and_offset', 'eval'])
    mode = R.choice(['rank', 'nat', 'mixed', 'mixed'])
    c = coord_for(A[1], mode=mode, allow_under=R.choice([0.2, 0.4, 0.6]))
    return o, call(o, c, A) if o != 'eval' else call(o, A, c)

# ---------------- coalesce with profile, mode ops on nested layouts
@op(5)
def coalesce_prof():
    A = layout(compact=0.85)
    return 'coalesce', call('coalesce', A, profile_for(A[1]))
@op(7)
def modeops():
    A = layout()
    r = rank_of(A)
    o = R.choice(['group', 'take', 'select', 'flatten', 'unflatten', 'append', 'prepend', 'replace', 'get', 'layout', 'shape', 'size', 'rank', 'depth', 'cosize', 'stride'])
    if o in ('group', 'take'):
        b = R.randrange(r + 1); e = R.randint(b, r)
        if R.random() < 0.05: e = r + 1
        return o, call(o, A, targs=(b, e))
    if o == 'select': return o, call(o, A, targs=tuple(R.randrange(r) for _ in range(R.randint(1, 3))))
    if o == 'flatten': return o, call(o, A if R.random() < 0.8 else A[1])
    if o == 'unflatten':
        # target profile: a re-nesting of the flat shape
        fs = flat(pyshape(A[1])); fl = flags(len(fs))
        def nest(xs):
            if len(xs) <= 1 or R.random() < 0.4: return xs if len(xs) != 1 or R.random() < 0.5 else xs[0]
            k = R.randint(1, len(xs) - 1)
            a, b = nest(xs[:k]), nest(xs[k:])
            return [a, b] if R.random() < 0.5 else ([a] if isinstance(a, int) else a) + ([b] if isinstance(b, int) else b)
        t = nest(fs)
        if isinstance(t, int): t = [t]
        return o, call(o, ('layout', node(fs, list(fl)), node(flat(pyshape(A[2])) if A[2][0]=='tuple' else [A[2][1]], list(fl))) if R.random() < 0.5 else A, shape_node(t))
    if o in ('append', 'prepend'):
        X = layout(R.choice([2, 4, [2, 2], [[2, 3]]]))
        if R.random() < 0.3:
            return o, call(o, A, X, targs=(r + R.randint(1, 2),))
        if R.random() < 0.1:
            return o, call(o, A, targs=(r + R.randint(1, 2),))
        return o, call(o, A, X)
    if o == 'replace':
        return o, call(o, A, layout(R.choice([2, 4, [2, 2], [[2, 3]]])), targs=(R.randrange(r),))
    if o in ('get', 'layout'):
        t = [R.randrange(r)]
        sub = A[1][1][t[0]] if A[1][0] == 'tuple' else None
        if sub is not None and sub[0] == 'tuple' and R.random() < 0.6: t.append(R.randrange(len(sub[1])))
        return o, call(o, A, targs=tuple(t))
    if R.random() < 0.5:
        t = [R.randrange(r)]
        sub = A[1][1][t[0]] if A[1][0] == 'tuple' else None
        if sub is not None and sub[0] == 'tuple' and R.random() < 0.6: t.append(R.randrange(len(sub[1])))
        return o, call(o, A, targs=tuple(t))
    return o, call(o, A)

# ---------------- identity layouts and basis strides
@op(6)
def identity():
    S = shape_node(rshape(vals=[1, 2, 2, 3, 4, 4, 8]))
    Id = call('make_identity_layout', S)
    c = R.random()
    if c < 0.15: return 'make_identity_layout', Id
    if c < 0.35: return 'eval', call('eval', Id, coord_for(S))
    if c < 0.55:
        o = R.choice(['logical_divide', 'zipped_divide', 'composition', 'flat_divide', 'tiled_divide'])
        fake = ('layout', S, S)
        return o, call(o, Id, tiler(fake))
    if c < 0.65: return 'coalesce', call('coalesce', Id)
    if c < 0.75:
        o = R.choice(['slice', 'dice'])
        return o, call(o, coord_for(S, allow_under=0.4), Id)
    B = basis_layout()
    c = R.random()
    if c < 0.5: return 'eval', call('eval', B, coord_for(B[1]))
    if c < 0.7:
        A = layout(pstatic=0.0)
        return 'composition', call('composition', A, B)
    if c < 0.85: return 'coalesce', call('coalesce', B)
    o = R.choice(['flatten', 'size', 'get_hier_coord'])
    if o == 'get_hier_coord': return 'get_hier_coord', call(o, B, coord_for(B[1], mode='1d'))
    return o, call(o, B)

def main():
    N = int(sys.argv[2])
    names = list(OPS)
    ws = [float(WEIGHTS.get(n, OPS[n][0])) for n in names]
    seen = set()
    with open(sys.argv[3], 'w') as f:
        k = 0
        while k < N:
            g = R.choices(names, ws)[0]
            o, e = OPS[g][1]()
            s = unparse(e)
            if s in seen or len(s) > 400: continue
            seen.add(s); k += 1
            f.write('c2s%s_%d\t%s\t%s\t%s\n' % (sys.argv[1], k, o, s, g))

if __name__ == '__main__':
    main()
