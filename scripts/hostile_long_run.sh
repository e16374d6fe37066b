#!/usr/bin/env bash
# The long run of the hostile-input suite (issue 17): every class of layout-core/tests/hostile and
# the CLI's random-lines protocol test, each in its own release process under a 4 GB address-space
# limit and /usr/bin/time -v; prints one row per class (cases, wall time, peak RSS, result).
#
#   scripts/hostile_long_run.sh            # 1,000,000+ cases (about 10 minutes on 2 cores)
#   SCALE=10 scripts/hostile_long_run.sh   # a tenth of that
set -euo pipefail
cd "$(dirname "$0")/.."
SCALE=${SCALE:-1}
# class name, test function, cases
CLASSES=(
  "garbage garbage_bytes 250000"
  "mutation oracle_mutations 250000"
  "operations random_operations 200000"
  "extreme extreme_integers 200000"
  "metamorphic metamorphic_definitions 100000"
  "deep deep_nesting 20000"
  "bombs size_bombs 10000"
  "wide wide_layouts 1000"
)
cargo test -j1 --release -p cute-layout-core --test hostile --no-run 2>/dev/null
cargo test -j1 --release -p cute-cli --test protocol --no-run 2>/dev/null
core=$(ls -t target/release/deps/hostile-* | grep -v '\.d$' | head -1)
cli=$(ls -t target/release/deps/protocol-* | grep -v '\.d$' | head -1)
log=$(mktemp)
total=0
printf '| class | cases | gave a value | wall time | peak RSS | failures |\n| --- | ---: | ---: | ---: | ---: | --- |\n'
run() { # name, cases, command...
  local name=$1 n=$2; shift 2
  if ( ulimit -v 4194304; /usr/bin/time -v "$@" ) >"$log" 2>&1; then ok=0; else ok=1; fi
  local wall rss fails values
  wall=$(grep 'Elapsed (wall clock)' "$log" | awk '{print $NF}')
  rss=$(grep 'Maximum resident set size' "$log" | awk '{printf "%.0f MB", $NF/1024}')
  fails=$(grep -o '[0-9]* failures' "$log" | head -1 || true)
  values=$(grep -o '([0-9]* gave a value)' "$log" | tr -dc '0-9' || true)
  [ "$ok" = 0 ] || fails="FAILED (${fails:-see log})"
  printf '| %s | %s | %s | %s | %s | %s |\n' "$name" "$n" "${values:--}" "$wall" "$rss" "${fails:-0 failures}"
  [ "$ok" = 0 ] || tail -30 "$log" >&2
  total=$((total + n))
}
for c in "${CLASSES[@]}"; do
  set -- $c
  n=$(( $3 / SCALE ))
  run "$1" "$n" env HOSTILE_CASES="$n" "$core" --exact "$2" --nocapture
done
n=$(( 200000 / SCALE ))
run "cli (stdin lines)" "$n" env HOSTILE_CLI_LINES="$n" "$cli" --exact random_lines_keep_the_protocol
echo "total: $total cases"
