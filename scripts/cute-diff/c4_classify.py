#!/usr/bin/env python3
"""Classify disagreement rows (id op expr cute ours) from c2_partial.py / compare.py output.
usage: c4_classify.py DIS.tsv -> prints class counts; writes DIS.cls (row + class)
classes: dev_postcondition (ours: CuTe's result is not A o B, checked independently for
         layout/layout compositions), dev_int32 (CuTe's ints wrapped mod 2^32, ours checked i64),
         other (to look at)."""
import re, sys, collections
from notation import parse

def leaves(n):
    if n[0] == 'int': return [n[1]]
    return [x for y in n[1] for x in leaves(y)]

def lay(n):
    if n[0] == 'layout': return leaves(n[1]), leaves(n[2])
    if n[0] == 'int': return [n[1]], [1]
    raise ValueError(n)

def ev(L, i, extend=False):
    r = 0
    for k, (s, d) in enumerate(zip(*L)):
        if extend and k == len(L[0]) - 1:
            r += i * d; i = 0
        else:  # C++ truncating / and % (as CuTe evaluates A at negative indices)
            q = abs(i) // s * (1 if i >= 0 else -1)
            r += (i - q * s) * d; i = q
    return r

def size(L):
    p = 1
    for s in L[0]: p *= s
    return p

def comp_wrong(e, c):
    """True/False: CuTe's composition result differs from A o B; None: not checkable"""
    try:
        t = parse(e); A, B = t[3]; Al, Bl, Rl = lay(A), lay(B), lay(parse(c))
    except Exception:
        return None
    if size(Bl) > 1 << 16: return None
    return not (size(Rl) == size(Bl) and all(ev(Rl, j) == ev(Al, ev(Bl, j), True) for j in range(size(Bl))))

NUM = re.compile(r'-?\d+')

def int32_wrap(c, o):
    c, o = c.replace('_', ''), o.replace('_', '')
    if NUM.sub('#', c) != NUM.sub('#', o): return False
    a, b = [int(x) for x in NUM.findall(c)], [int(x) for x in NUM.findall(o)]
    return any(x != y for x, y in zip(a, b)) and all((x - y) % (1 << 32) == 0 for x, y in zip(a, b)) \
        and all(-(1 << 31) <= x < (1 << 31) for x in a)

def classify(op, e, c, o):
    if o.startswith('error') and "CuTe's result" in o:
        if op == 'composition':
            w = comp_wrong(e, c)
            if w is False: return 'BAD_postcondition_claim'
        return 'dev_postcondition'
    if not o.startswith('error') and c != 'error' and int32_wrap(c, o):
        return 'dev_int32'
    if o.startswith('error') and ('overflow' in o or 'above the limit' in o):
        return 'dev_overflow_or_limit'
    return 'other'

if __name__ == '__main__':
    cnt = collections.Counter()
    with open(sys.argv[1] + '.cls', 'w') as f:
        for l in open(sys.argv[1]):
            r = l.rstrip('\n').split('\t')
            if len(r) < 5: continue
            k = classify(r[1], r[2], r[3], r[4])
            cnt[(k, r[1])] += 1
            f.write('\t'.join(r[:5] + [k]) + '\n')
    for k, v in sorted(cnt.items()): print(v, *k)
