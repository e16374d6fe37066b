#!/usr/bin/env python3
"""Random expressions by mutating the public `random` rows (keeps op mix and structure style).
usage: gen.py SEED MUTANTS_PER_ROW OUT.tsv   -> id<TAB>op<TAB>expr
"""
import random, sys
from notation import compact_strides, parse, unparse

R = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)

VALS = [1] * 8 + [2] * 25 + [4] * 20 + [8] * 15 + [16] * 8 + [32] * 5 + [3] * 5 + [5, 6, 7, 9, 10, 12, 24, 64, 6, 12, 3]


def rv():
    return R.choice(VALS)


def leaves(n):
    if n[0] == 'int':
        return [n]
    if n[0] == 'tuple':
        return [l for x in n[1] for l in leaves(x)]
    return []


def size(n):
    if n[0] == 'int':
        return n[1]
    if n[0] == 'tuple':
        p = 1
        for x in n[1]:
            p *= size(x)
        return p
    if n[0] == 'layout':
        return size(n[1])
    return 1


def rebuild(n, vals):
    """replace int leaves of tuple tree n by vals (list of (v,static)) in order"""
    if n[0] == 'int':
        v, s = vals.pop(0)
        return ('int', v, s)
    if n[0] == 'tuple':
        return ('tuple', [rebuild(x, vals) for x in n[1]])
    return n


def static_scheme(orig_flags, k):
    c = R.random()
    if c < 0.35:
        return list(orig_flags)
    if c < 0.6:
        return [True] * k
    if c < 0.75:
        return [False] * k
    return [R.random() < 0.5 for _ in range(k)]


def mut_layout(n):
    S, D = n[1], n[2]
    if not (S[0] in ('int', 'tuple') and D[0] in ('int', 'tuple')):
        return n
    sl, dl = leaves(S), leaves(D)
    if len(sl) != len(dl):
        return n
    k = len(sl)
    # shape values
    if R.random() < 0.55:
        svals = [l[1] for l in sl]
    else:
        svals = [l[1] if R.random() < 0.5 else rv() for l in sl]
        p = 1
        for v in svals:
            p *= max(v, 1)
        if p > 65536:
            svals = [l[1] for l in sl]
    # strides
    c = R.random()
    if c < 0.25:
        dvals = [l[1] for l in dl]
    elif c < 0.75:
        order = list(range(k))
        if R.random() < 0.7:
            R.shuffle(order)
        elif R.random() < 0.5:
            order.reverse()
        dvals = compact_strides(R, svals, order, 0.08, [2, 3, 4], 0.25)
    else:
        dvals = [R.choice([0, 1, 1, 2, 4, 8, 16, 32, 64, 3, 6, 12, 128]) for _ in range(k)]
    sf = static_scheme([l[2] for l in sl], k)
    if R.random() < 0.3:
        df = list(sf)
    else:
        df = static_scheme([l[2] for l in dl], k)
    S2 = rebuild(S, list(zip(svals, sf)))
    D2 = rebuild(D, list(zip(dvals, df)))
    return ('layout', S2, D2)


def mut_tuple(n, pv=0.3, pf=0.15):
    if n[0] == 'int':
        v, s = n[1], n[2]
        if R.random() < pv:
            v = rv()
        if R.random() < pf:
            s = not s
        return ('int', v, s)
    if n[0] == 'tuple':
        return ('tuple', [mut(x, pv, pf) for x in n[1]])
    return mut(n)


def rand_coord(c, S):
    """random coordinate congruent with c, in range of S where matched"""
    if c[0] == 'int':
        sz = max(size(S), 1)
        v = R.randrange(sz) if R.random() < 0.95 else R.randrange(sz * 2)
        return ('int', v, c[2] if R.random() < 0.85 else not c[2])
    if c[0] == 'tuple':
        if S[0] == 'tuple' and len(S[1]) == len(c[1]):
            return ('tuple', [rand_coord(x, y) for x, y in zip(c[1], S[1])])
        return ('tuple', [rand_coord(x, ('int', 4, True)) for x in c[1]])
    return c


def shape_of(L):
    if L[0] == 'layout':
        return L[1]
    if L[0] == 'composed':
        return shape_of(L[3])
    return L


def mut(n, pv=0.3, pf=0.15):
    k = n[0]
    if k == 'layout':
        return mut_layout(n)
    if k in ('int', 'tuple'):
        return mut_tuple(n, pv, pf)
    if k == 'composed':
        L = mut(n[3])
        return ('composed', n[1], n[2], L)
    if k == 'call':
        name, targs, args = n[1], list(n[2]), n[3]
        if name == 'eval' and len(args) == 2:
            L = mut(args[0])
            S = shape_of(L)
            return ('call', name, targs, [L, rand_coord(args[1], S)])
        if name == 'crd2idx':
            S = mut_tuple(args[1], 0.3, 0.15)
            rest = [mut_tuple(a, 0.3, 0.15) for a in args[2:]]
            return ('call', name, targs, [rand_coord(args[0], S), S] + rest)
        if name == 'idx2crd':
            S = mut_tuple(args[1], 0.3, 0.15)
            rest = [mut_tuple(a, 0.3, 0.15) for a in args[2:]]
            return ('call', name, targs, [rand_coord(args[0], S), S] + rest)
        if name in ('get_hier_coord', 'get_flat_coord', 'get_1d_coord'):
            L = mut(args[0])
            return ('call', name, targs, [L, rand_coord(args[1], shape_of(L))])
        if name in ('upcast', 'downcast') and R.random() < 0.3:
            targs = [str(R.choice([2, 4, 8, 16]))]
        if name == 'recast_layout' and R.random() < 0.3:
            targs = [str(x) for x in R.choice([(4, 8), (8, 4), (8, 16), (16, 8), (16, 32), (32, 16), (8, 32), (32, 8), (6, 4), (4, 6), (6, 8), (8, 6), (16, 16)])]
        if name == 'tile_to_shape' or name == 'make_ordered_layout' or name == 'compact_order':
            # keep order arg structure; mutate others lightly
            out = [mut(args[0])] + [mut_tuple(a, 0.2, 0.15) for a in args[1:2]] + args[2:]
            if len(args) > 2 and R.random() < 0.3:
                o = args[2]
                ls = leaves(o)
                perm = list(range(len(ls)))
                R.shuffle(perm)
                out[2] = rebuild(o, [(p, l[2]) for p, l in zip(perm, ls)])
            return ('call', name, targs, out)
        return ('call', name, targs, [mut(a) for a in args])
    return n


def main():
    n_per = int(sys.argv[2])
    out = open(sys.argv[3], 'w')
    rows = [l.rstrip('\n').split('\t') for l in open('/work/shared/oracle/public.tsv')][1:]
    rows = [r for r in rows if r[2] == 'random']
    seen = set(r[3] for r in rows)
    cnt = 0
    for r in rows:
        try:
            a = parse(r[3])
        except Exception:
            continue
        for j in range(n_per):
            for _ in range(5):
                e = unparse(mut(a))
                if e not in seen and len(e) < 400:
                    break
            if e in seen:
                continue
            seen.add(e)
            cnt += 1
            out.write('m%s_%d_%d\t%s\t%s\n' % (sys.argv[1], cnt, j, r[1], e))
    out.close()


if __name__ == '__main__':
    main()
