#!/usr/bin/env python3
"""Targeted expressions around the classes found by the random campaign -> t1.tsv, t1.in"""
rows=[]
k=0
def add(op,e):
    global k; k+=1; rows.append(('t%d'%k,op,e))
A=['16:1','_16:_1','(16):(1)','(_16):(_1)','((4,4)):((1,4))','(_4,_4):(_1,_4)','(4,4):(1,4)','_1:_1','1:1','(_1):(_0)','((_2,_2)):((_1,_2))']
B=['2:1','_2:_1','(2):(1)','(_2):(_1)','((2,2)):((1,2))','(_2,_2):(_1,_2)','(2,3):(1,2)','_1:_1','1:1','(_1):(_0)','(((_2)),_2):(((_1)),_2)']
for op in ['blocked_product','raked_product','logical_product','zipped_product','tiled_product','flat_product']:
    for a in A:
        for b in B:
            add(op,'%s(%s,%s)'%(op,a,b))
for L in ['_2:_1','4:_1','(_4,_2):(_1,_4)','(4,2):(1,4)','(_1):(_0)','(2):(1)','_8:_2']:
    for s in ['1','2','4','8','_1','_2','_4','_8','(2)','(_2)','(2,2)','(_2,4)']:
        add('with_shape','with_shape(%s,%s)'%(L,s))
for blk in ['8:1','8:_1','_8:_1','(8):(1)','(_8):(_1)','(2,4):(1,2)','(_2,4):(_1,_2)','(_2,_4):(_1,_2)']:
    for t in ['_16','16','(_16)','(16)','(_16,_8)','(16,8)','(_16,8)','(16,_8)','(_8,_4,_2)']:
        add('tile_to_shape','tile_to_shape(%s,%s)'%(blk,t))
for a in ['(2,4):(1,2)','(_2,_4):(_1,_2)','(2,_4):(_1,2)','(3,5):(1,3)','(_3,5):(_1,_3)','6:1','6:_1','_6:_1']:
    for b in ['7:_1','_7:_1','(2,4):(_1,_2)','(_2,_4):(_1,_2)','(3,2):(_2,_1)','5:_1','(_5,3):(_3,_1)','8:_1']:
        add('max_common_vector','max_common_vector(%s,%s)'%(a,b))
        add('max_common_layout','max_common_layout(%s,%s)'%(a,b))
with open('t1.tsv','w') as f:
    for r in rows: f.write('\t'.join(r)+'\n')
