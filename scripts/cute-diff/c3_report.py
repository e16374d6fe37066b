#!/usr/bin/env python3
"""Per-op counts over the third campaign (c3a-c3d) before/after the fixes, and the classes of the
rows that were fixed. usage: c3_report.py  (reads c3_final/)"""
import collections, re
SETS = [('c3a', 'c3a'), ('c3b', 'c3b'), ('c3c', 'c3c'), ('c3d', 'c3d'), ('c3e_ok', 'c3e')]  # (gen, CuTe out)

def load(p):
    return dict(l.rstrip('\n').split('\t', 1) for l in open(p))

def same(c, o):
    ce = c == 'error' or c.startswith('CRASH')
    return (ce and o.startswith('error')) or (not ce and c == o)

def cls(e, c, o):
    if re.match(r'(min|max|gcd)\(', e) and '()' in e: return 'reduction over an empty tuple ()'
    if e.startswith('gcd'): return 'gcd sign (CuTe Euclid on C++ remainders)'
    if e.startswith('replace'): return 'replace<N> with a non-layout argument / of a composed layout'
    if e.startswith('unflatten'): return 'unflatten of a non-tuple (static ok, dynamic error)'
    if e.startswith(('get_flat_coord', 'get_1d_coord')) and '()' in e: return 'crd2idx over no integer modes'
    if e.startswith('zip') and e.count(':') >= 3: return 'zip of 3+ layouts'
    if 'Sw<' in e: return 'generic tuple algorithm on a composed layout'
    if e.startswith(('select', 'take', 'group')): return 'select/take/group of a dynamic integer (dim3)'
    if e.startswith('max_alignment'): return 'gcd sign (CuTe Euclid on C++ remainders)'
    return 'other'

tested = collections.Counter(); before = collections.Counter(); after = collections.Counter()
fixed = collections.defaultdict(list); left = collections.defaultdict(list)
for s, o in SETS:
    rows = [l.rstrip('\n').split('\t') for l in open(s + '.gen')]
    cute = load(o + '.out'); new = load('c3_final/%s.ours' % s); old = load('c3_final/%s.orig' % s)
    for i, op, e in rows:
        c = cute.get(i, 'MISSING')
        if c in ('TIMEOUT', 'MISSING', 'UNPARSED', 'CRASH:?'): continue
        tested[op] += 1
        b = same(c, old[i]); a = same(c, new[i])
        before[op] += b; after[op] += a
        if a and not b: fixed[cls(e, c, old[i])].append((i, op, e, c, old[i]))
        if not a: left[op].append((i, e, c, new[i]))
print('%-22s %7s %7s %7s' % ('op', 'tested', 'before', 'after'))
for op in sorted(tested, key=lambda k: -tested[k]):
    print('%-22s %7d %7d %7d' % (op, tested[op], before[op], after[op]))
print('%-22s %7d %7d %7d' % ('TOTAL', sum(tested.values()), sum(before.values()), sum(after.values())))
print()
for k, v in sorted(fixed.items(), key=lambda kv: -len(kv[1])):
    print('FIXED %-55s %4d  e.g. %s | cute: %s | before: %s' % (k, len(v), v[0][2], v[0][3], v[0][4][:90]))
with open('c3_final/fixed.tsv', 'w') as f:
    for k, v in fixed.items():
        for r in v: f.write('\t'.join(r) + '\t' + k + '\n')
print()
for op, v in left.items():
    for r in v: print('LEFT', op, '\t'.join(x[:140] for x in r))
