#!/usr/bin/env bash
# Packs a GPU run's log folder for the device tool, which brings back at most 8 files from $OUT, none more
# than two folders down, each path named in letters, digits, '.', '_', '-' (session 21 lost two attention
# logs to the first rule, session 21's tuner logs to the last). When the folder breaks a rule, every file
# but summary.txt (which a caller may still be writing through `tee`) goes into logs.tar.gz: unpack it
# with `tar xzf logs.tar.gz` in the run's folder under gpu/logs/.
# Usage: bash scripts/gpu/pack_out.sh [DIR]   (default: $OUT)
set -euo pipefail
dir="${1:-${OUT:?pack_out.sh: no folder given and OUT unset}}"
files=$(cd "$dir" && find . -type f ! -path ./summary.txt | sed 's|^\./||')
count=$(printf '%s\n' "$files" | grep -c . || true)
deep=$(printf '%s\n' "$files" | grep -c '/.*/.*/' || true)
odd=$(printf '%s\n' "$files" | grep -c '[^A-Za-z0-9._/-]' || true)
if [ "$count" -lt 8 ] && [ "$deep" = 0 ] && [ "$odd" = 0 ]; then
  exit 0
fi
tmp=$(mktemp -d)
(cd "$dir" && printf '%s\n' "$files" | tar czf "$tmp/logs.tar.gz" -T -)
(cd "$dir" && printf '%s\n' "$files" | xargs -d '\n' rm -f && find . -mindepth 1 -type d -empty -delete)
mv "$tmp/logs.tar.gz" "$dir/" && rmdir "$tmp"
echo "pack_out: $count files of $dir in logs.tar.gz ($deep too deep, $odd oddly named)"
