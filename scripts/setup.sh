#!/usr/bin/env bash
# Installs what building and testing need on a fresh Debian machine with
# rustup, Node and npm: the wasm32 target, wasm-bindgen-cli at exactly the
# version the crate pins, cargo-fuzz and nightly, and the npm packages from
# the lock file.
# Idempotent: skips what is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

rustup target add wasm32-unknown-unknown

want=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' Cargo.toml)
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  echo "setup: installing wasm-bindgen-cli $want (have: ${have:-none}); takes a few minutes" >&2
  cargo install wasm-bindgen-cli --version "$want"
fi

# The fuzz targets (fuzz/, scripts/fuzz.sh): cargo-fuzz at this version,
# and the nightly toolchain libFuzzer's instrumentation needs.
fuzz_want=0.13.2
fuzz_have=$(cargo fuzz --version 2>/dev/null | awk '{print $2}' || true)
if [ "$fuzz_have" != "$fuzz_want" ]; then
  echo "setup: installing cargo-fuzz $fuzz_want (have: ${fuzz_have:-none})" >&2
  cargo install cargo-fuzz --version "$fuzz_want" --locked
fi
if ! rustup run nightly rustc --version >/dev/null 2>&1; then
  rustup toolchain install nightly --profile minimal
fi

# Debian's Chromium for the browser test (playwright-core drives it; needs
# root, as CI runs). The fonts only make emoji/CJK legible in screenshots.
if ! [ -x /usr/bin/chromium ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-color-emoji fonts-wqy-microhei
fi

# Debian's SCOWL-based word lists: src/text/words.bin is generated from them
# and its test checks it is current (the test fails without them).
if ! [ -f /usr/share/dict/american-english ] || ! [ -f /usr/share/dict/british-english ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wamerican wbritish
fi

# python3: the CPython difflib oracle of src/matching/tests/difflib_diff.rs and
# src/judge/difflib_tests.rs (those tests fail without it, never skip).
if ! command -v python3 >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3
fi

# scikit-learn: the oracle of tests/cite_metrics_sklearn.rs (the citation
# pipeline's metrics, spec 004 §7); that test fails without it, never skips.
if ! python3 -c 'import sklearn' 2>/dev/null && ! /usr/bin/python3 -c 'import sklearn' 2>/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-sklearn
fi

# scipy: the oracle of tests/cite_metrics_scipy.rs (the ablation's t, χ²
# and McNemar tests, spec 004 §7.5); that test fails without it, never skips.
if ! python3 -c 'import scipy' 2>/dev/null && ! /usr/bin/python3 -c 'import scipy' 2>/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-scipy
fi

if [ -f package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
