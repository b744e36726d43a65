#!/usr/bin/env bash
# Runs the fuzz targets (fuzz/, cargo-fuzz + libFuzzer on nightly) one after
# another, each for SECONDS (default 5), starting from its committed corpus
# fuzz/corpus/<target> (replayed first; new inputs go to a scratch corpus,
# so the committed one stays as it is). Prints one line per target:
# executions, seconds, coverage (libFuzzer's `cov:` edges), corpus size,
# result.
#   scripts/fuzz.sh                 # every target, 5 s each (scripts/test.sh)
#   scripts/fuzz.sh 600 validate    # one target, 10 minutes
# A long campaign (README "Reliability"): up to 10 million executions or an
# hour per target, nice'd, what it finds kept outside the repository:
#   EV_FUZZ_RUNS=10000000 EV_FUZZ_CORPUS=~/fuzz-corpus EV_FUZZ_LOGS=~/fuzz-logs \
#     nice -n 19 scripts/fuzz.sh 3600
# Environment:
#   EV_FUZZ_RUNS=N       stop a target after N executions (libFuzzer -runs)
#   EV_FUZZ_CORPUS=DIR   the scratch corpus is DIR/<target>, kept (and read
#                        again by the next run: a campaign goes on from it)
#   EV_FUZZ_LOGS=DIR     keep each target's libFuzzer log as DIR/<target>.log
#   EV_FUZZ_KEEP=1       new inputs go to fuzz/corpus/<target> instead (then
#                        minimize it: cargo +nightly fuzz cmin <target>)
#   EV_FUZZ_FLAGS        cargo-fuzz build flags (below)
# A failure leaves the input in fuzz/artifacts/<target>/ and the script goes
# on with the next target, then exits 1: fix the library, then copy the
# file to tests/regressions/<target>/ (tests/regressions.rs replays it in the
# normal suite).
set -euo pipefail
cd "$(dirname "$0")/../fuzz"

# Release build with debug assertions (overflow checks: an overflow is a
# crash, not a wrapped value) and no sanitizer: the crate has no `unsafe`,
# and without AddressSanitizer the build is about twice as fast and so are
# the runs. EV_FUZZ_FLAGS overrides (e.g. "-O" for cargo-fuzz's ASan build).
FLAGS=${EV_FUZZ_FLAGS:--O -a -s none}

seconds=${1:-5}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cargo +nightly fuzz list)
fi
runs=()
if [ -n "${EV_FUZZ_RUNS:-}" ]; then runs=(-runs="$EV_FUZZ_RUNS"); fi

cargo +nightly fuzz build $FLAGS >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
scratch=${EV_FUZZ_CORPUS:-$tmp/corpus}
logs=${EV_FUZZ_LOGS:-$tmp}
mkdir -p "$scratch" "$logs"
failed=()
printf '%-16s %12s %8s %8s %8s  %s\n' target executions seconds cov corpus result
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t" "$scratch/$t"
  out="corpus/$t"
  dirs=("$scratch/$t" "corpus/$t")
  if [ "${EV_FUZZ_KEEP:-0}" = 1 ]; then dirs=("corpus/$t"); fi
  log="$logs/$t.log"
  start=$SECONDS
  result=ok
  if ! cargo +nightly fuzz run $FLAGS "$t" "${dirs[@]}" -- -max_total_time="$seconds" "${runs[@]}" \
      -max_len=4096 -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1; then
    tail -40 "$log" >&2
    echo "fuzz: $t failed; the input is in fuzz/artifacts/$t/" >&2
    result=FAILED
    failed+=("$t")
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | awk '{print $2}')
  corpus=$(( $(ls "$scratch/$t" | wc -l) + $(ls "$out" | wc -l) ))
  [ "${EV_FUZZ_KEEP:-0}" = 1 ] && corpus=$(ls "$out" | wc -l)
  printf '%-16s %12s %8s %8s %8s  %s\n' "$t" "${execs:-?}" "$((SECONDS - start))" "${cov:-?}" "$corpus" "$result"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: failed: ${failed[*]}" >&2
  exit 1
fi
