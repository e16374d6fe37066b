#!/usr/bin/env python3
"""Independent check of composition deviation rows: does CuTe's printed result R equal A o B on B's domain
(A extended past its last mode)?  usage: checkcomp.py DIS.tsv"""
import sys
from notation import parse

def leaves(n):
    if n[0]=='int': return [n[1]]
    return [x for y in n[1] for x in leaves(y)]

def lay(n):
    if n[0]=='layout': return leaves(n[1]), leaves(n[2])
    if n[0]=='int': return [n[1]],[1]
    raise ValueError(n)

def ev(L, i, extend=False):
    S,D=L; r=0
    for k,(s,d) in enumerate(zip(S,D)):
        if extend and k==len(S)-1:
            r+=i*d; i=0
        else:
            r+=(i%s)*d; i//=s
    return r

def size(L):
    p=1
    for s in L[0]: p*=s
    return p

bad=0; tot=0
for line in open(sys.argv[1]):
    i,op,e,c,o,cls=line.rstrip('\n').split('\t')
    if op!='composition' or not cls.startswith('deviation'): continue
    t=parse(e)
    A,B=t[3]
    if B[0]!='layout' and B[0]!='int': continue  # tilers: skip
    if A[0]!='layout': continue
    try:
        Al,Bl,Rl=lay(A),lay(B),lay(parse(c))
    except Exception as ex: continue
    tot+=1
    ok = size(Rl)==size(Bl) and all(ev(Rl,j)==ev(Al,ev(Bl,j),True) for j in range(size(Bl)))
    if ok:
        bad+=1; print('CUTE RESULT IS ACTUALLY CORRECT:', e, c)
print('checked',tot,'cute-correct',bad)
