#!/bin/bash
# Rerun the whole campaign.  Needs: /work/main/target/release/cute built; cutlass/include extracted (see README.txt)
set -e
cd /tmp/cutediff
C=/root/.cache/cute-nvcc/nvidia/cu13/include
[ -f pch.hpp.gch ] || g++ -std=c++17 -O0 -w -I$C -I$C/cccl -I/tmp/cutediff/cutlass/include -x c++-header pch.hpp -o pch.hpp.gch
python3 gen.py 1 1 g1.tsv; python3 gen.py 2 1 g2.tsv; python3 gen.py 3 1 g3.tsv; python3 gen2.py 7 2500 f7.tsv; python3 gen2.py 8 2000 f8.tsv
python3 targeted.py; python3 targeted2.py   # t1.tsv t2.tsv
rm -f dis_all.tsv
rm -f *.summary
for g in g1 g2 g3 f7 f8 t1 t2; do
  awk -F'\t' '{print $1"\t"$3}' $g.tsv > $g.in
  python3 runcpp.py $g.in $g.out 250
  rm -f $g.ours; python3 compare.py $g.tsv $g.out $g.ours dis_all.tsv > $g.summary
done
python3 summarize.py
