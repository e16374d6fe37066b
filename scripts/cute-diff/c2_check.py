#!/usr/bin/env python3
"""Function-level checks of CuTe results for composition (layouts / composed / swizzles) and
slice/slice_and_offset of composed layouts.  usage: c2_check.py DIS.tsv -> adds verdict column"""
import sys
from notation import parse

def leaves(n):
    if n[0] == 'int': return [n[1]]
    if n[0] == 'tuple': return [x for y in n[1] for x in leaves(y)]
    raise ValueError(n)

def swz(b, m, s):
    bm = (1 << b) - 1
    yy = bm << (m + max(0, s)); 
    def f(x):
        return x ^ ((x & yy) >> s) if s >= 0 else x ^ ((x & yy) << -s)
    return f

class F:
    """callable 1-D function with size"""
    def __init__(self, n, extend=False):
        k = n[0]
        if k == 'layout':
            self.S, self.D = leaves(n[1]), leaves(n[2]); self.kind = 'L'
        elif k == 'int':
            self.S, self.D = [n[1]], [1]; self.kind = 'L'
        elif k == 'composed':
            self.kind = 'C'; self.sw = swz(*n[1][1:]); self.off = n[2][1]; self.inner = F(n[3], extend)
            self.S = self.inner.S
        elif k == 'swz':
            self.kind = 'S'; self.sw = swz(*n[1:]); self.S = [1 << 30]
        else:
            raise ValueError(k)
        self.extend = extend
    def size(self):
        p = 1
        for s in self.S: p *= s
        return p
    def __call__(self, i):
        if self.kind == 'S': return self.sw(i)
        if self.kind == 'C': return self.sw(self.off + self.inner(i))
        r = 0
        for k, (s, d) in enumerate(zip(self.S, self.D)):
            if self.extend and k == len(self.S) - 1:
                r += i * d; i = 0
            else:
                r += (i % s) * d; i //= s
        return r

def check_comp(e, c):
    t = parse(e); A, B = t[3]
    if B[0] == 'tuple' or A[0] == 'tuple': return 'skip_tiler'
    try:
        Fa, Fb, Fr = F(A, True), F(B), F(parse(c))
    except Exception as ex:
        return 'skip_' + str(ex)[:20]
    n = Fb.size() if B[0] != 'swz' else Fa.size()
    if Fr.size() != n and B[0] != 'swz': return 'cute_wrong_size'
    for i in range(min(n, 1 << 16)):
        if Fr(i) != Fa(Fb(i)): return 'cute_wrong_at_%d' % i
    return 'CUTE_CORRECT'

def check_slice(e, c, op):
    t = parse(e); crd, L = t[3]
    if L[0] != 'composed': return 'skip'
    R = parse(c)
    off = 0
    if op == 'slice_and_offset':
        R, o = R[1]; off = o[1]
    # true function: enumerate sliced coordinates
    S = L[3][1]; D = L[3][2]
    # build list of free leaves (shape,stride) and fixed offset
    free = []; fixed = [0]
    def walk(c, s, d):
        if c[0] == 'under':
            for a, b in zip(leaves(s), leaves(d)): free.append((a, b))
        elif c[0] == 'tuple':
            if s[0] != 'tuple':
                raise ValueError('crd deeper than shape')
            for x, y, z in zip(c[1], s[1], d[1]): walk(x, y, z)
        else:
            # integer coord into (possibly tuple) mode: colex
            i = c[1]; ls, ld = leaves(s), leaves(d)
            for k, (a, b) in enumerate(zip(ls, ld)):
                if k == len(ls) - 1: fixed[0] += i * b
                else: fixed[0] += (i % a) * b; i //= a
    walk(crd, S, D)
    sw = swz(*L[1][1:]); o0 = L[2][1]
    Fr = F(R)
    n = 1
    for a, _ in free: n *= a
    if Fr.size() != n: return 'cute_wrong_size'
    base = None
    for i in range(min(n, 1 << 16)):
        j = i; x = 0
        for a, b in free: x += (j % a) * b; j //= a
        truth = sw(o0 + fixed[0] + x)
        got = Fr(i) + off
        if op == 'slice':
            if base is None: base = truth - got
            got += base
        if got != truth: return 'cute_wrong_at_%d' % i
    return 'CUTE_CORRECT'

if __name__ == '__main__':
    for line in open(sys.argv[1]):
        f = line.rstrip('\n').split('\t')
        i, op, e, c, o = f[:5]
        v = ''
        if c != 'error' and not c.startswith('CRASH'):
            try:
                if op == 'composition': v = check_comp(e, c)
                elif op in ('slice', 'slice_and_offset'): v = check_slice(e, c, op)
            except Exception as ex:
                v = 'skip_exc_' + type(ex).__name__
        print('\t'.join(f + [v]))
