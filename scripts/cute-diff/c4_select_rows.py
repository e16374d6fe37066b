#!/usr/bin/env python3
"""Pick the fourth campaign's lines for tests/data/oracle_added.tsv: the fixed cases (at most CAP per
class, spread over ops) and a per-op stratified sample of agreeing cases (values below 2^31, ~1/5 errors).
usage: c4_select_rows.py FIRST_ID_NUMBER N_AGREE CAP OUT.tsv   (reads c4_fixed.tsv and SETS below)"""
import collections, random, re, sys
first, n_agree, cap, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
R = random.Random(4)
SETS = ['c4a', 'c4bc', 'c4d', 'c4e']

def load(p): return dict(l.rstrip('\n').split('\t', 1) for l in open(p))
def expected(c): return 'error' if c == 'error' or c.startswith('CRASH') else c
def same(c, o): return expected(c) == ('error' if o.startswith('error') else o)
def small(s): return all(abs(int(x)) < 2 ** 31 for x in re.findall(r'-?\d+', s))

fixed = collections.defaultdict(list)
for l in open('c4_fixed.tsv'):
    i, op, e, c, before, k = l.rstrip('\n').split('\t')
    fixed[k].append((i, op, e, c))
rows, chosen = [], set()
for k, v in sorted(fixed.items()):
    byop = collections.defaultdict(list)
    for r in v: byop[r[1]].append(r)
    picked = []
    while len(picked) < cap and any(byop.values()):
        for op in sorted(byop):
            if byop[op] and len(picked) < cap: picked.append(byop[op].pop(0))
    for i, op, e, c in picked:
        rows.append((op, e, expected(c))); chosen.add(e)
n_fixed = len(rows)
pool = collections.defaultdict(list)
for s in SETS:
    cute = load(s + '.out'); ours = load(s + '.ours')
    for l in open(s + '.gen'):
        i, op, e = l.rstrip('\n').split('\t')
        c = cute.get(i, 'MISSING')
        if c in ('TIMEOUT', 'MISSING', 'UNPARSED', 'CRASH:?') or e in chosen: continue
        if not same(c, ours[i]) or len(e) > 200 or not small(e + ' ' + c): continue
        pool[op].append((op, e, expected(c)))
per = n_agree // len(pool) + 1
agree = []
for op in sorted(pool):
    v = pool[op]; R.shuffle(v)
    errs = [r for r in v if r[2] == 'error'][:max(2, per // 5)]
    oks = [r for r in v if r[2] != 'error'][:per - len(errs)]
    agree += errs + oks
R.shuffle(agree)
rows += agree[:n_agree]
with open(out, 'w') as f:
    for j, (op, e, c) in enumerate(rows):
        f.write('q%05d\t%s\tcute-cpp-random\t%s\t%s\n' % (first + j, op, e, c))
print('fixed', n_fixed, 'agree', len(agree[:n_agree]))
