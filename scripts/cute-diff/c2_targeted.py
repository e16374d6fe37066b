#!/usr/bin/env python3
"""targeted probes around c2 classes -> c2t.tsv"""
rows = []
def add(op, e): rows.append(('c2t_%d' % (len(rows) + 1), op, e, 'targeted'))
Ls = ['_8:16', '8:16', '_8:_1', '(_8):(_1)', '(8,4):(1,8)', '(_8,_4):(_1,_8)', '((_2,_4),_4):((_1,_2),_8)', '_1:_0', '(_8)', '_8', '8', '(4,(2,2))']
for L in Ls:
    for b in range(0, 4):
        for e in range(b, 4):
            add('group', 'group<%d,%d>(%s)' % (b, e, L))
        add('take', 'take<%d,%d>(%s)' % (b, b + 1, L))
        add('take', 'take<%d,%d>(%s)' % (b, b, L))
CL = ['Sw<2,1,2> o _0 o (_2,_8):(_3,_32)', 'Sw<3,4,3> o _0 o (_8,_64):(_64,_1)', 'Sw<2,0,3> o _0 o (_8,_8):(_8,_1)', 'Sw<1,2,3> o _16 o (_4,(_2,_4)):(_1,(_4,_64))',
      'Sw<3,3,3> o _0 o ((_8,_2),_16):((_1,_64),_8)', 'Sw<2,1,-3> o _0 o (_4,_4):(_4,_1)', 'Sw<3,4,3> o _0 o (8,64):(64,1)']
for L in CL:
    for c in ['(1,_)', '(_,1)', '(_1,_)', '(_,_1)', '(_,_)', '_', '3', '_3', '(_,(_,1))', '((_,1),_)', '((1,_),_)', '(_,(1,_))', '(0,_)', '(_0,_)']:
        for o in ['slice', 'slice_and_offset', 'dice']:
            add(o, '%s(%s,%s)' % (o, c, L))
    for o in ['select<0>', 'select<1,0>', 'select<1>', 'flatten', 'coalesce', 'get<0>', 'get<1>', 'take<0,1>', 'take<1,2>', 'group<0,2>', 'group<0,1>', 'size', 'cosize', 'shape', 'rank', 'depth', 'right_inverse', 'left_inverse', 'upcast<2>', 'downcast<2>', 'complement', 'layout<0>', 'filter', 'shape<0>', 'size<1>', 'unflatten']:
        if o == 'unflatten': add(o, 'unflatten(%s,(_2,_2))' % L); continue
        add(o.split('<')[0], '%s(%s)' % (o, L))
    for X in ['_2:_1', '(_2):(_64)', '_4:_0']:
        for o in ['append', 'prepend', 'replace<0>', 'append<3>', 'prepend<3>']:
            add(o.split('<')[0], '%s(%s,%s)' % (o, L, X))
    for t in ['_2', '_4', '(_2,_2)', '(_4,_4)', '(_2:_2,_)', '(_,_2:_1)', '(_4:_2,_2)', '_8:_1', '(_2,_2):(_1,_8)', '((_2,_2),_4)']:
        for o in ['composition', 'logical_divide', 'zipped_divide', 'tiled_divide', 'flat_divide', 'logical_product', 'zipped_product']:
            add(o, '%s(%s,%s)' % (o, L, t))
    for c in ['(1,2)', '(_1,_2)', '5', '_5', '((1,1),2)', '(1,(1,1))']:
        add('eval', 'eval(%s,%s)' % (L, c))
    for P in ['(_1,_1)', '_1', '(_1)', '((_1,_1),_1)']:
        add('coalesce', 'coalesce(%s,%s)' % (L, P))
    for ct in ['_1024', '1024', '(_32,_32)', '(_16,(_8,_8))']:
        add('complement', 'complement(%s,%s)' % (L, ct))
with open('c2t.tsv', 'w') as f:
    for r in rows: f.write('\t'.join(r) + '\n')
print(len(rows))
