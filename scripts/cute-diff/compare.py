#!/usr/bin/env python3
"""Run our CLI on GEN.tsv (id op expr), compare with CUTE.out (id result).
usage: compare.py GEN.tsv CUTE.out OURS.out DIS.tsv
Writes OURS.out (id<TAB>ours) and appends disagreements to DIS.tsv (id op expr cute ours class).
"""
import subprocess, sys, collections, os, re

CLI = '/work/main/target/release/cute'


def run_ours(exprs):
    p = subprocess.run([CLI, 'eval', '-'], input='\n'.join(exprs) + '\n', capture_output=True, text=True)
    lines = (p.stdout + '').split('\n')
    # errors go to stdout or stderr? handle both: re-run one by one if count mismatch
    if len([l for l in lines if l != '']) == len(exprs) and all(l != '' for l in lines[:len(exprs)]):
        return lines[:len(exprs)]
    out = []
    for e in exprs:
        q = subprocess.run([CLI, 'eval', e], capture_output=True, text=True)
        s = (q.stdout.strip() or q.stderr.strip())
        out.append(s.split('\n')[0])
    return out


def main():
    gen, cute_out, ours_out, dis = sys.argv[1:5]
    rows = [l.rstrip('\n').split('\t') for l in open(gen) if l.strip()]
    cute = dict(l.rstrip('\n').split('\t', 1) for l in open(cute_out))
    if os.path.exists(ours_out):
        ours = dict(l.rstrip('\n').split('\t', 1) for l in open(ours_out))
    else:
        res = []
        B = 2000
        for k in range(0, len(rows), B):
            res += run_ours([r[2] for r in rows[k:k + B]])
        ours = {r[0]: v for r, v in zip(rows, res)}
        with open(ours_out, 'w') as f:
            for r in rows:
                f.write('%s\t%s\n' % (r[0], ours[r[0]]))
    stats = collections.Counter()
    tested = collections.Counter()
    agree = collections.Counter()
    with open(dis, 'a') as f:
        for i, op, e in rows:
            c = cute.get(i, 'MISSING')
            o = ours[i]
            if c in ('TIMEOUT', 'MISSING', 'UNPARSED', 'CRASH:?'):
                stats['skip_' + c] += 1
                continue
            tested[op] += 1
            cerr = c == 'error' or c.startswith('CRASH')
            oerr = o.startswith('error')
            if cerr and oerr:
                agree[op] += 1
                continue
            if not cerr and not oerr and c == o:
                agree[op] += 1
                continue
            if cerr:
                cls = 'cute_error_ours_ok'
            elif oerr:
                cls = 'cute_ok_ours_error'
                if "CuTe's result" in o:
                    m = re.search(r"CuTe's result (.*?) (is not|has size)", o)
                    if m and m.group(1) == c:
                        cls = 'deviation_postcondition'
                    elif op in ('max_common_vector', 'max_common_layout'):
                        cls = 'inner_composition_check_leaks'
                    else:
                        cls = 'deviation_postcondition_inner'
                else:
                    cls = 'cute_ok_ours_error' 
            else:
                cls = 'differ'
            stats[cls] += 1
            f.write('\t'.join([i, op, e, c, o, cls]) + '\n')
    for op in sorted(tested, key=lambda k: -tested[k]):
        print('%-22s tested %5d agree %5d' % (op, tested[op], agree[op]))
    print('TOTAL tested', sum(tested.values()), 'agree', sum(agree.values()))
    print(dict(stats))


if __name__ == '__main__':
    main()
