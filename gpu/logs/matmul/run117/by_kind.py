import sys
from sass_csv import kernels as split
kernels=split(sys.argv[1])
for name,hdr,body in kernels:
    H={h:i for i,h in enumerate(hdr)}
    tot=sum(float(r[H['Warp Stall Sampling (All Samples)']] or 0) for r in body)
    cat={}
    for r in body:
        s=float(r[H['Warp Stall Sampling (All Samples)']] or 0); src=r[1]
        k=('HGMMA' if 'HGMMA' in src else 'DEPBAR' if 'WARPGROUP.DEPBAR' in src else 'SYNCS' if 'SYNCS' in src else 'BAR' if src.strip().startswith('BAR') or ' BAR.' in src else 'STS' if 'STS' in src else 'STSM' if 'STSM' in src else 'UTMA' if 'UTMA' in src or 'UBLKCP' in src else 'F2F/cvt' if 'F2FP' in src else 'BRA' if 'BRA' in src else 'other')
        cat[k]=cat.get(k,0)+s
    ex=lambda pat: sum(int(r[H['Instructions Executed']] or 0) for r in body if pat in r[1])
    print(name, 'samples',tot, ' '.join(f"{k}={100*v/tot:.1f}" for k,v in sorted(cat.items(),key=lambda x:-x[1])))
    print('   exec STS',ex('STS'),'STSM',ex('STSM'),'BAR.SYNC',ex('BAR.SYNC'),'F2FP',ex('F2FP'),'HGMMA',ex('HGMMA'), 'SYNCS', ex('SYNCS'))
