import sys
from sass_csv import kernels as split
kernels=split(sys.argv[1])
want=sys.argv[2]; thr=float(sys.argv[3]) if len(sys.argv)>3 else 0.005
for name,hdr,body in kernels:
    if want not in name: continue
    H={h:i for i,h in enumerate(hdr)}
    tot=sum(float(r[H['Warp Stall Sampling (All Samples)']] or 0) for r in body)
    print(name,'total samples',tot, 'instr', len(body))
    stalls=[h for h in hdr if h.startswith('stall_') and 'Not Issued' not in h]
    for i,r in enumerate(body):
        s=float(r[H['Warp Stall Sampling (All Samples)']] or 0)
        if s/tot>=thr:
            top=sorted(((float(r[H[h]] or 0),h) for h in stalls),reverse=True)[:3]
            print(f"{i:5d} {r[0][-5:]} {100*s/tot:5.1f}% exec={r[H['Instructions Executed']]:>9} {r[1][:70]:70s} "+' '.join(f"{h[6:]}={100*v/tot:.1f}" for v,h in top if v>0))
