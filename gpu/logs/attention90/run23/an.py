import csv, sys, collections
fn = sys.argv[1]
rows = list(csv.reader(open(fn)))
hdr = rows[1]; data = rows[2:]
ix = {h:i for i,h in enumerate(hdr)}
S = ix["Warp Stall Sampling (All Samples)"]
reasons = [h for h in hdr if h.startswith("stall_") and "Not Issued" not in h]
tot = sum(int(r[S]) for r in data if r[S].isdigit())
print("total samples", tot)
agg = collections.Counter()
for r in data:
    for h in reasons:
        v = r[ix[h]]
        if v.isdigit(): agg[h] += int(v)
print({k: round(v/tot,3) for k,v in agg.most_common(10)})
# by opcode
op = collections.Counter()
for r in data:
    o = r[ix["Source"]].split()[0] if r[ix["Source"]].split() else ""
    if o.startswith("@"): o = r[ix["Source"]].split()[1]
    op[o.split(".")[0]] += int(r[S]) if r[S].isdigit() else 0
print("by opcode", [(k, round(v/tot,3)) for k,v in op.most_common(15)])
top = sorted(range(len(data)), key=lambda i: -int(data[i][S] or 0))[:int(sys.argv[2]) if len(sys.argv)>2 else 30]
for i in sorted(top):
    r = data[i]
    rs = sorted(((int(r[ix[h]]), h[6:]) for h in reasons if r[ix[h]].isdigit() and int(r[ix[h]])>0), reverse=True)[:3]
    print(f"{i:5d} {int(r[S])/tot:6.3f} {r[ix['Source']].strip()[:60]:60s} {rs}")
