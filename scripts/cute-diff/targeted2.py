#!/usr/bin/env python3
"""bare dynamic-int arguments everywhere -> t2.tsv"""
rows=[]
Ls=['(_4,_2):(_1,_4)','(4,2):(1,4)','8:1','_8:_1','(_8):(_1)','((_2,_4),_2):((_1,_2),_8)','(_4,(_2,_2)):(_2,(_1,_8))']
ints=['1','2','4','8','_2','_4']
for L in Ls:
    for n in ints:
        for op in ['composition','logical_divide','zipped_divide','tiled_divide','flat_divide','logical_product','zipped_product',
                   'tiled_product','flat_product','blocked_product','raked_product','complement','tile_to_shape','with_shape','coalesce']:
            rows.append((op,'%s(%s,%s)'%(op,L,n)))
with open('t2.tsv','w') as f:
    for k,(op,e) in enumerate(rows): f.write('u%d\t%s\t%s\n'%(k,op,e))
