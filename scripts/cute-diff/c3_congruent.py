#!/usr/bin/env python3
"""Drop the rows whose expression holds a layout S:D with S and D not congruent (outside the
notation's grammar; CuTe's make_layout does not check it). usage: c3_congruent.py IN.gen OUT.gen"""
import sys
from notation import parse

def prof(n):
    return ('t', [prof(x) for x in n[1]]) if n[0] == 'tuple' else 'x'

def ok(n):
    if not isinstance(n, tuple): return True
    if n[0] == 'layout' and prof(n[1]) != prof(n[2]): return False
    return all(ok(x) if isinstance(x, tuple) else all(ok(y) for y in x) if isinstance(x, list) else True for x in n[1:])

kept = dropped = 0
with open(sys.argv[2], 'w') as f:
    for l in open(sys.argv[1]):
        e = l.rstrip('\n').split('\t')[2]
        if ok(parse(e)): f.write(l); kept += 1
        else: dropped += 1
print('kept', kept, 'dropped', dropped)
