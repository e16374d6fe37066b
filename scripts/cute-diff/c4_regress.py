#!/usr/bin/env python3
"""Rerun our CLI on earlier campaigns' sets; print rows that agreed with CuTe before and not now.
usage: c4_regress.py SET...   (SET.gen or SET.tsv: id op expr; SET.out: CuTe; SET.ours: before)"""
import os, subprocess, sys
CLI = '/work/main/target/release/cute'
def norm(x): return 'error' if x == 'error' or x.startswith('CRASH') or x.startswith('error') else x
for s in sys.argv[1:]:
    g = s + '.gen' if os.path.exists(s + '.gen') else s + '.tsv'
    rows = [l.rstrip('\n').split('\t') for l in open(g) if l.strip()]
    cute = dict(l.rstrip('\n').split('\t', 1) for l in open(s + '.out'))
    old = dict(l.rstrip('\n').split('\t', 1) for l in open(s + '.ours'))
    p = subprocess.run([CLI, 'eval', '-'], input='\n'.join(r[2] for r in rows) + '\n', capture_output=True, text=True)
    new = p.stdout.split('\n')
    ob = nb = 0
    for r, n in zip(rows, new):
        c = cute.get(r[0], 'MISSING')
        if c in ('TIMEOUT', 'MISSING', 'UNPARSED', 'CRASH:?'): continue
        a, b = norm(c) == norm(old.get(r[0], '')), norm(c) == norm(n)
        ob += a; nb += b
        if a and not b: print('REGRESSION', s, r[0], r[2], c, n, sep='\t')
    print(s, 'rows', len(rows), 'agree before', ob, 'after', nb)
