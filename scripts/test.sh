#!/usr/bin/env bash
# Runs every test: native Rust (unit, integration, property, CLI, doc tests),
# a few seconds of each fuzz target,
# the Rust tests compiled to wasm and run in Node by wasm-bindgen-test, then
# builds the npm package, type-checks its TypeScript declarations (tsc) and
# runs the typed and JS tests against it, the web UI in
# Chromium and the edge function in workerd.
# Run scripts/setup.sh once first.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*" >&2; }

step "formatting (cargo fmt --check; rustfmt.toml)"
cargo fmt --check

step "lints (clippy, warnings are errors; native with and without the CLI, and the wasm build)"
cargo clippy --all-targets --features cli -- -D warnings
cargo clippy --all-targets -- -D warnings
cargo clippy --lib --tests --no-default-features --target wasm32-unknown-unknown -- -D warnings
# the `evidence-validator/core` build (spec 000 alone: scripts/build-pkg.mjs)
cargo clippy --lib --no-default-features --features wasm-core --target wasm32-unknown-unknown -- -D warnings

step "rustdoc (warnings are errors: no broken link, no public doc linking a private item)"
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps

step "native tests (cargo test, release for the property tests' speed; the cli feature builds the binary its tests run)"
cargo test --release --all-targets --features cli
step "doc tests (host; on wasm they would pass even when failing)"
cargo test --release --doc

step "fuzz targets: build, replay each committed corpus and fuzz 5 s each (scripts/fuzz.sh; nightly, cargo-fuzz)"
scripts/fuzz.sh 5

step "wasm tests in Node (wasm-bindgen-test)"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test --target wasm32-unknown-unknown --no-default-features --tests

step "npm package build (the full package, then evidence-validator/core in pkg/core)"
npm run build
step "TypeScript declarations checked by tsc"
npm run test:types
step "JS tests against the built package"
npm run test:js
step "web UI in Debian's Chromium (playwright-core; builds www/dist when stale)"
npm run test:browser
step "edge function in workerd (Miniflare on 127.0.0.1)"
npm run test:edge
