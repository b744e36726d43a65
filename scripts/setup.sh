#!/usr/bin/env bash
# Installs what building and testing need on a fresh Debian machine with
# rustup, Node and npm: the wasm32 target, wasm-bindgen-cli at exactly the
# version the crate pins, and the npm packages from the lock file.
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

if [ -f package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
