#!/usr/bin/env python3
"""Measures the meaning guard on a SummEdits file (Laban et al. 2023,
github.com/salesforce/factualNLG, data/summedits/*.json): each edited
summary is quoted as a direct_quote against its seed summary; prints how
many of the edits annotators labelled inconsistent (label 0) are refused,
with the default config and with a loose fuzzy budget that lets the guard,
not the edit limit, decide.

usage: scripts/measure-summedits.py FILE.json [path/to/evidence-validator]
(the binary: cargo build --release --features cli)
"""
import json, os, subprocess, sys, tempfile

def run(binary, seed, edits, config):
    with tempfile.TemporaryDirectory() as d:
        src, ev, cfg = (os.path.join(d, n) for n in ("s.txt", "c.json", "cfg.json"))
        open(src, "w").write(seed)
        claims = [{"id": "EV%03d" % (i + 1), "task_id": "P1.T001", "quote": q, "evidence_type": "direct_quote"} for i, q in enumerate(edits)]
        json.dump({"source_metadata": {"format": "plain_text"}, "claims": claims}, open(ev, "w"))
        json.dump(config, open(cfg, "w"))
        out = subprocess.run([binary, "validate", "--source", src, "--evidence", ev, "--config", cfg], capture_output=True, text=True)
        return [c["validation_status"] for c in json.loads(out.stdout)["validated_claims"]]

def main():
    items = json.load(open(sys.argv[1]))
    binary = sys.argv[2] if len(sys.argv) > 2 else "target/release/evidence-validator"
    by_seed = {}
    for it in items:
        if it["label"] == 0 and it["summary"] != it["original_summary"]:
            by_seed.setdefault(it["original_summary"], []).append(it["summary"])
    for name, config in (("default", {}), ("loose (40 edits, similarity 0.6)", {"fuzzy_matching": {"max_edit_distance": 40, "similarity_threshold": 0.6}})):
        total = refused = 0
        for seed, edits in by_seed.items():
            for status in run(binary, seed, edits, config):
                total += 1
                refused += status != "VALIDATED"
        print(f"{name}: {refused} of {total} inconsistent edits refused ({100.0 * refused / max(total, 1):.1f} %)")

if __name__ == "__main__":
    main()
