#!/usr/bin/env bash
# Runs the fuzz targets (fuzz/, cargo-fuzz + libFuzzer on nightly) one after
# another, each for SECONDS (default 5), starting from its committed corpus
# fuzz/corpus/<target> (replayed first; new inputs go to a scratch corpus,
# so the committed one stays as it is). Prints one line per target:
# executions, coverage (libFuzzer's `cov:` edges), corpus size.
#   scripts/fuzz.sh                 # every target, 5 s each (scripts/test.sh)
#   scripts/fuzz.sh 600 validate    # one target, 10 minutes
# A failure leaves the input in fuzz/artifacts/<target>/: fix the library,
# then copy the file to tests/regressions/<target>/ (tests/regressions.rs
# replays it in the normal suite). EV_FUZZ_KEEP=1 keeps what a run found in
# fuzz/corpus/<target> (then minimize it: cargo +nightly fuzz cmin <target>).
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

cargo +nightly fuzz build $FLAGS >&2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
printf '%-16s %12s %8s %8s %8s\n' target executions seconds cov corpus
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t" "$scratch/$t"
  out="corpus/$t"
  dirs=("$scratch/$t" "corpus/$t")
  if [ "${EV_FUZZ_KEEP:-0}" = 1 ]; then dirs=("corpus/$t"); fi
  log="$scratch/$t.log"
  if ! cargo +nightly fuzz run $FLAGS "$t" "${dirs[@]}" -- -max_total_time="$seconds" -max_len=4096 \
      -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1; then
    tail -40 "$log" >&2
    echo "fuzz: $t failed; the input is in fuzz/artifacts/$t/" >&2
    exit 1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | awk '{print $2}')
  corpus=$(( $(ls "$scratch/$t" | wc -l) + $(ls "$out" | wc -l) ))
  [ "${EV_FUZZ_KEEP:-0}" = 1 ] && corpus=$(ls "$out" | wc -l)
  printf '%-16s %12s %8s %8s %8s\n' "$t" "${runs:-?}" "$seconds" "${cov:-?}" "$corpus"
done
