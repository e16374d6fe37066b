#!/usr/bin/env python3
"""Third campaign, fifth wave: mutants of the public rows of the under-sampled ops (same argument
forms; new values, static/dynamic flips, zeros and ones, an extra or wrapped mode now and then).
usage: c3_mutate.py SEED PER_ROW OUT.tsv"""
import random, sys
from notation import parse, unparse
OPS = set('''zip min max round_up product product_each domain_distribute stride shape weakly_congruent congruent
dice shape_div get colex_less elem_less take max_alignment coshape inner_product evenly_divides gcd elem_scale
layout slice get_1d_coord get_flat_coord get_hier_coord filter_zeros coprofile ceil_div compact_order select
replace group unflatten make_identity_layout'''.split())
R = random.Random(int(sys.argv[1]))
VALS = [0, 1, 1, 2, 2, 2, 3, 4, 4, 4, 6, 8, 8, 12, 16, 32]

def mut(n, flip, vals):
    k = n[0]
    if k == 'int':
        v = n[1]
        if R.random() < 0.6:
            v = R.choice(vals) if v >= 0 else -R.choice(vals[1:])
        st = (not n[2]) if R.random() < flip else n[2]
        return ('int', v, st)
    if k == 'tuple':
        xs = [mut(x, flip, vals) for x in n[1]]
        if R.random() < 0.05 and xs: xs.append(xs[-1])
        if R.random() < 0.04 and xs: j = R.randrange(len(xs)); xs[j] = ('tuple', [xs[j]])
        return ('tuple', xs)
    if k == 'layout': return ('layout', mut(n[1], flip, vals), mut(n[2], flip, vals))
    if k == 'composed': return ('composed', n[1], mut(n[2], flip, vals), mut(n[3], flip, vals))
    if k == 'call': return ('call', n[1], n[2], [mut(a, flip, vals) for a in n[3]])
    return n

def keep_shape_coords(n):
    """coordinate/index arguments: keep them small so they stay in range most of the time"""
    return n

def main():
    per = int(sys.argv[2]); out = sys.argv[3]
    rows = []; seen = set()
    for l in open('/work/shared/oracle/public.tsv'):
        f = l.rstrip('\n').split('\t')
        if f[1] not in OPS: continue
        n = parse(f[3]); seen.add(f[3])
        for _ in range(per * 3):
            if sum(1 for r in rows if r[2] == f[0]) >= per: break
            flip = R.choice([0.0, 0.1, 0.3])
            vals = VALS if R.random() < 0.8 else [1, 2, 4, 8]
            m = mut(n, flip, vals)
            e = unparse(m)
            if e in seen: continue
            seen.add(e); rows.append((f[1], e, f[0]))
    R.shuffle(rows)
    with open(out, 'w') as fo:
        for j, (op, e, src) in enumerate(rows):
            fo.write('c3e%s_%05d\t%s\t%s\n' % (sys.argv[1], j, op, e))

if __name__ == '__main__':
    main()
