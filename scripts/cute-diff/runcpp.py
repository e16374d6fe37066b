#!/usr/bin/env python3
"""Evaluate notation expressions with real CuTe C++.
usage: runcpp.py IN.tsv OUT.tsv [unit_size]
IN.tsv: id<TAB>expr  (no header).  OUT.tsv: id<TAB>result  where result is cute::print output,
'error' (compile-time rejection), 'CRASH:<sig>' (runtime signal, e.g. SIGFPE), 'TIMEOUT', or 'UNPARSED'.
"""
import os, re, subprocess, sys, concurrent.futures as cf
from notation import parse, cpp

HERE = os.path.dirname(os.path.abspath(__file__))
C = '/root/.cache/cute-nvcc/nvidia/cu13/include'
FLAGS = ['-std=c++17', '-O0', '-w', '-I' + C, '-I' + C + '/cccl', '-I' + HERE + '/cutlass/include']
BUILD = os.path.join(HERE, 'build')

PRELUDE = r'''#include "%s/pch.hpp"
using namespace cute;
static sigjmp_buf JB;
static volatile int SIG = 0;
static void H(int s) { SIG = s; siglongjmp(JB, 1); }
typedef void (*FN)();
''' % HERE

MAIN = r'''
int main(int argc, char** argv) {
  int start = argc > 1 ? atoi(argv[1]) : 0;
  signal(SIGFPE, H); signal(SIGSEGV, H); signal(SIGABRT, H); signal(SIGILL, H);
  for (int i = start; i < NF; ++i) {
    printf("@@%s\t", IDS[i]); fflush(stdout);
    if (sigsetjmp(JB, 1) == 0) { FNS[i](); printf("\n"); }
    else { printf("<<CRASH:%d>>\n", (int)SIG); signal(SIGFPE, H); signal(SIGSEGV, H); signal(SIGABRT, H); signal(SIGILL, H);}
    fflush(stdout);
  }
  return 0;
}
'''


def write_unit(path, items):
    """items: list of (id, cppexpr). Each function on exactly one line; returns line->index map."""
    lines = PRELUDE.split('\n')
    linemap = {}
    for k, (i, e) in enumerate(items):
        lines.append('void f%d() { auto r = %s; print(r); }' % (k, e))
        linemap[len(lines)] = k
    lines.append('static FN FNS[] = {%s};' % ','.join('f%d' % k for k in range(len(items))))
    lines.append('static const char* IDS[] = {%s};' % ','.join('"%s"' % i for i, _ in items))
    lines.append('static const int NF = %d;' % len(items))
    lines.append(MAIN)
    with open(path, 'w') as f:
        f.write('\n'.join(lines))
    return linemap


def compile_unit(name, items):
    """Compile, dropping expressions that fail to compile. Returns (exe, kept_items, errored_ids)."""
    errored = []
    items = list(items)
    for attempt in range(40):
        if not items:
            return None, [], errored
        src = os.path.join(BUILD, name + '.cpp')
        exe = os.path.join(BUILD, name)
        linemap = write_unit(src, items)
        r = subprocess.run(['g++'] + FLAGS + [src, '-o', exe], capture_output=True, text=True)
        if r.returncode == 0:
            return exe, items, errored
        bad = set()
        for m in re.finditer(re.escape(src) + r':(\d+):', r.stderr):
            ln = int(m.group(1))
            if ln in linemap:
                bad.add(linemap[ln])
        if not bad:
            # unknown failure: bisect by halves
            if len(items) == 1:
                errored.append(items[0][0])
                return None, [], errored
            h = len(items) // 2
            e1, k1, er1 = compile_unit(name + 'a', items[:h])
            e2, k2, er2 = compile_unit(name + 'b', items[h:])
            sys.stderr.write('bisected %s\n' % name)
            return (e1, e2), (k1, k2), errored + er1 + er2
        for b in sorted(bad):
            errored.append(items[b][0])
        items = [it for k, it in enumerate(items) if k not in bad]
    h = len(items) // 2
    e1, k1, er1 = compile_unit(name + 'a', items[:h])
    e2, k2, er2 = compile_unit(name + 'b', items[h:])
    return (e1, e2), (k1, k2), errored + er1 + er2


def run_exe(exe, items, timeout=20):
    res = {}
    n = len(items)
    start = 0
    while start < n:
        try:
            p = subprocess.run([exe, str(start)], capture_output=True, timeout=timeout)
            out = p.stdout.decode('utf-8', 'replace')
            to = False
        except subprocess.TimeoutExpired as e:
            out = (e.stdout or b'').decode('utf-8', 'replace')
            to = True
        last = None
        for line in out.split('@@')[1:]:
            if '\t' not in line:
                continue
            i, v = line.split('\t', 1)
            if v.endswith('\n'):
                v = v[:-1]
                m = re.search(r'<<CRASH:(\d+)>>$', v)
                if m:
                    v = 'CRASH:%s' % m.group(1)
                res[i] = v
            else:
                res[i] = 'TIMEOUT' if to else 'CRASH:?'
            last = i
        ids = [it[0] for it in items]
        if last is None:
            # nothing printed at all
            res[ids[start]] = 'TIMEOUT' if to else 'CRASH:?'
            start += 1
        else:
            if last not in res or res[last] in ('TIMEOUT', 'CRASH:?') or to:
                res.setdefault(last, 'TIMEOUT' if to else 'CRASH:?')
            start = ids.index(last) + 1
        if not to and start < n and p.returncode != 0 and last is None:
            pass
        if not to and p.returncode == 0:
            break
    return res


def process(name, items):
    import json, hashlib
    key = hashlib.md5(repr(items).encode()).hexdigest()
    cache = os.path.join(BUILD, name + '.' + key + '.json')
    if os.path.exists(cache):
        return json.load(open(cache))
    r = process1(name, items)
    json.dump(r, open(cache, 'w'))
    return r


def process1(name, items):
    exe, kept, errored = compile_unit(name, items)
    res = {i: 'error' for i in errored}
    def go(exe, kept):
        if exe is None:
            return
        if isinstance(exe, tuple):
            for e, k in zip(exe, kept):
                go(e, k)
            return
        res.update(run_exe(exe, kept))
    go(exe, kept)
    return res


def main():
    inp, outp = sys.argv[1], sys.argv[2]
    usz = int(sys.argv[3]) if len(sys.argv) > 3 else 250
    jobs = int(os.environ.get('JOBS', '2'))
    os.makedirs(BUILD, exist_ok=True)
    rows = [l.rstrip('\n').split('\t')[:2] for l in open(inp) if l.strip()]
    res = {}
    items = []
    for i, e in rows:
        try:
            items.append((i, cpp(parse(e))))
        except Exception as ex:
            res[i] = 'UNPARSED'
    tag = os.path.basename(inp).split('.')[0]
    units = [items[k:k + usz] for k in range(0, len(items), usz)]
    with cf.ThreadPoolExecutor(jobs) as ex:
        futs = [ex.submit(process, '%s_u%d' % (tag, k), u) for k, u in enumerate(units)]
        for k, f in enumerate(futs):
            res.update(f.result())
            sys.stderr.write('unit %d/%d done\n' % (k + 1, len(units)))
    with open(outp, 'w') as f:
        for i, e in rows:
            f.write('%s\t%s\n' % (i, res.get(i, 'MISSING')))


if __name__ == '__main__':
    main()
