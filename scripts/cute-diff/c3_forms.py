import sys,collections
sys.path.insert(0,'/tmp/cutediff')
from notation import parse
ops=sys.argv[1].split(',')
def kind(n):
    k=n[0]
    if k=='int': return 'S' if n[2] else 'D'
    if k=='tuple': return 'T'
    if k=='layout': return 'L'
    if k=='composed': return 'C'
    if k=='swz': return 'W'
    if k=='call': return 'call:'+n[1]
    return k
forms=collections.defaultdict(collections.Counter)
ex={}
for l in open('/work/shared/oracle/public.tsv'):
    f=l.rstrip('\n').split('\t')
    if f[1] not in ops: continue
    n=parse(f[3])
    key=(f[1],'<%d>'%len(n[2]) if n[2] else '', tuple(kind(a) for a in n[3]))
    forms[f[1]][key]+=1
    ex.setdefault(key,[]).append(f[3]+' => '+f[4])
for op in ops:
    for key,c in forms[op].items():
        print(c,key, ' | '.join(ex[key][:3]))
