#!/usr/bin/env python3
"""c2_classify.py CHK.tsv... -> c2_disagreements.tsv (id op expr cute ours class) + class counts"""
import sys, re, collections
from notation import parse

def dyn_offset(e):
    m = re.search(r'Sw<[-\d,]+> o (_?-?\d+) o', e)
    return m and not m.group(1).startswith('_')

def classify(i, op, e, c, o, gcls, chk):
    ce = c == 'error' or c.startswith('CRASH'); oe = o.startswith('error')
    comp = 'Sw<' in e
    if gcls.startswith('deviation'):
        if chk.startswith('cute_wrong'): return 'deviation_verified(' + chk + ')'
        m = re.search(r"at i = (\d+) it gives (\S+) but A\(B\(\d+\)\) = A\((\d+)\) = (\S+)", o)
        if m or 'has size' in o or 'is not a left inverse' in o or 'is not a right inverse' in o:
            return 'deviation_per_project_message(' + (chk or 'unchecked') + ')'
        return 'deviation_unverified(' + chk + ')'
    if op in ('upcast', 'downcast', 'recast_layout') and comp and ce and not oe:
        return 'composed_cast_dynamic_offset' if dyn_offset(e) else 'composed_cast_other'
    if op in ('right_inverse', 'left_inverse') and comp and ce and not oe:
        return 'composed_inverse_dynamic_offset' if dyn_offset(e) else 'composed_inverse_other'
    if op in ('get_hier_coord', 'get_flat_coord', 'get_1d_coord', 'idx2crd') and not ce and oe and 'division by zero' in o:
        return 'static_zero_index_over_zero_stride'
    if op in ('slice', 'slice_and_offset') and comp and not ce and oe and re.search(r'Sw<0,', e) and 'must be static' in o:
        return 'composed_slice_identity_swizzle_dynamic_mode'
    if op in ('select', 'dice', 'prepend', 'replace') and comp and not ce and oe:
        return 'composed_as_tuple_element(%s)' % op
    if op in ('slice', 'slice_and_offset') and comp and ce and not oe:
        return 'composed_slice_cute_static_assert'
    if op == 'group' and not ce and not oe:
        return 'group_empty_range_on_nontuple'
    if op in ('take', 'group') and not ce and oe:
        m = re.match(r'\w+<(\d+),(\d+)>', e)
        if op == 'take' and m and m.group(1) == m.group(2): return 'take_empty_range_inttuple'
        return 'nontuple_group_take_past_rank'
    if op == 'unflatten' and ce and not oe: return 'unflatten_of_nontuple'
    return 'other_' + ('E' if ce else 'ok') + '/' + ('E' if oe else 'ok')

rows = []
for fn in sys.argv[1:]:
    for line in open(fn):
        f = line.rstrip('\n').split('\t')
        i, op, e, c, o, gcls = f[:6]; chk = f[6] if len(f) > 6 else ''
        rows.append((i, op, e, c, o, classify(i, op, e, c, o, gcls, chk)))
with open('c2_disagreements.tsv', 'w') as f:
    f.write('id\top\texpr\tcute\tours\tclass\n')
    for r in rows: f.write('\t'.join(r) + '\n')
cnt = collections.Counter(r[5].split('(')[0] if r[5].startswith('deviation') else r[5] for r in rows)
for k, v in cnt.most_common(): print(v, k)
