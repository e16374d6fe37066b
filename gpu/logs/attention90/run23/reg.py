import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
hdr = rows[1]; data = rows[2:]
ix = {h:i for i,h in enumerate(hdr)}
S = ix["Warp Stall Sampling (All Samples)"]; E = ix["Instructions Executed"]
tot = sum(int(r[S] or 0) for r in data)
W = int(sys.argv[2]) if len(sys.argv)>2 else 25
i=0
while i < len(data):
    blk = data[i:i+W]
    s = sum(int(r[S] or 0) for r in blk)
    keys = [r[ix['Source']].strip() for r in blk]
    marks = []
    for k in keys:
        for m in ("HGMMA","BAR.","SYNCS.PHASECHK","SYNCS.ARRIVE","MUFU.EX2","WARPGROUP.DEPBAR","WARPGROUP.ARRIVE","EXIT","STG","UTMALDG","BRA","SHFL","MUFU.LG2","MUFU.RCP","USETMAXREG","WARPSYNC","RET"):
            if m in k: marks.append(m.split('.')[0] if m not in ("BAR.","MUFU.EX2","SYNCS.PHASECHK","SYNCS.ARRIVE") else m); break
    from collections import Counter
    c = Counter(marks)
    ex = max(int(r[E] or 0) for r in blk)
    print(f"{i:5d} {s/tot:6.3f} ex{ex:>9d} {dict(c)}")
    i += W
