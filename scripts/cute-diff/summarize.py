#!/usr/bin/env python3
"""Merge per-run summaries and disagreement files into disagreements.tsv + summary.txt"""
import collections, glob, re
tested=collections.Counter(); agree=collections.Counter()
for f in sorted(glob.glob('*.summary')):
    for l in open(f):
        m=re.match(r'(\S+)\s+tested\s+(\d+)\s+agree\s+(\d+)',l)
        if m and m.group(1)!='TOTAL':
            tested[m.group(1)]+=int(m.group(2)); agree[m.group(1)]+=int(m.group(3))
with open('summary.txt','w') as o:
    for op in sorted(tested,key=lambda k:-tested[k]):
        o.write('%-22s tested %5d agree %5d\n'%(op,tested[op],agree[op]))
    o.write('TOTAL tested %d agree %d\n'%(sum(tested.values()),sum(agree.values())))
rows=[l.rstrip('\n').split('\t') for l in open('dis_all.tsv')]
with open('disagreements.tsv','w') as o:
    o.write('id\top\texpr\tcute\tours\tclass\n')
    for r in rows: o.write('\t'.join(r)+'\n')
print(open('summary.txt').read())
print(collections.Counter((r[1],r[5]) for r in rows))
