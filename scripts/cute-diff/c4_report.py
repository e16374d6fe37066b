#!/usr/bin/env python3
"""Per-op tested / agree before (HEAD~1 build in /tmp/c4orig) and after the fixes over the fourth
campaign's sets; writes c4_fixed.tsv (id op expr cute before class) and c4_final/<set>.{orig,ours}.
usage: c4_report.py"""
import collections, os, subprocess
SETS = ['c4a', 'c4bc', 'c4d', 'c4e']
BIN = {'orig': '/tmp/c4orig/target/release/cute', 'ours': '/work/main/target/release/cute'}
def norm(x): return 'error' if x == 'error' or x.startswith('CRASH') or x.startswith('error') else x
def cls(op, e):
    if op == 'recast_layout': return 'recast_layout width without uint_bit_t'
    if op in ('eval', 'crd2idx', 'idx2crd'): return 'static zero coordinate over a size-0 mode'
    return 'result check divides by a size-0 mode at index 0'
os.makedirs('c4_final', exist_ok=True)
tested, before, after = collections.Counter(), collections.Counter(), collections.Counter()
with open('c4_fixed.tsv', 'w') as fx:
    for s in SETS:
        rows = [l.rstrip('\n').split('\t') for l in open(s + '.gen')]
        cute = dict(l.rstrip('\n').split('\t', 1) for l in open(s + '.out'))
        outs = {}
        for k, b in BIN.items():
            p = subprocess.run([b, 'eval', '-'], input='\n'.join(r[2] for r in rows) + '\n', capture_output=True, text=True)
            outs[k] = p.stdout.split('\n')[:len(rows)]
            with open('c4_final/%s.%s' % (s, k), 'w') as f:
                for r, o in zip(rows, outs[k]): f.write('%s\t%s\n' % (r[0], o))
        for r, o0, o1 in zip(rows, outs['orig'], outs['ours']):
            i, op, e = r
            c = cute.get(i, 'MISSING')
            if c in ('TIMEOUT', 'MISSING', 'UNPARSED', 'CRASH:?'): continue
            tested[op] += 1
            a, b = norm(c) == norm(o0), norm(c) == norm(o1)
            before[op] += a; after[op] += b
            if b and not a: fx.write('\t'.join([i, op, e, c, o0, cls(op, e)]) + '\n')
            if a and not b: print('REGRESSION', i, e, c, o1)
print('%-22s %7s %7s %7s' % ('op', 'tested', 'before', 'after'))
for op in sorted(tested, key=lambda k: -tested[k]):
    print('%-22s %7d %7d %7d' % (op, tested[op], before[op], after[op]))
print('%-22s %7d %7d %7d' % ('TOTAL', sum(tested.values()), sum(before.values()), sum(after.values())))
