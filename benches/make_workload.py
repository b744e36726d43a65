#!/usr/bin/env python3
"""Writes benches/data/claims-1000.json: the benchmark workload of issues 2
and 3, from the real document benches/data/rust-book.md.

Deterministic (seeded). 1000 direct quotes of 40-200 characters:
  70 % verbatim passages of the document,
  20 % passages with 1-3 letter substitutions (spaced apart, so the edit
       distance equals the number of substitutions),
  10 % absent: word salad built from the document's vocabulary.
Each claim records its kind and edit count under "bench" (ignored by the
validator, which allows extra claim fields) so benchmarks can check answers.

Run: python3 benches/make_workload.py
"""
import json
import random
import re
import sys
from pathlib import Path

HERE = Path(__file__).parent
DOC = (HERE / "data" / "rust-book.md").read_text(encoding="utf-8")


def passages(rng, n):
    """Whole-word passages of 40-200 chars within one paragraph."""
    paragraphs = [p for p in DOC.split("\n\n") if len(p) > 220 and not p.startswith("#")]
    out = []
    while len(out) < n:
        p = rng.choice(paragraphs)
        length = rng.randint(40, 200)
        start = rng.randint(0, len(p) - length)
        # snap to word boundaries
        while start > 0 and not p[start - 1].isspace():
            start -= 1
        end = start + length
        while end < len(p) and not p[end].isspace():
            end += 1
        q = p[start:end].strip()
        if 40 <= len(q) <= 2000 and "\n\n" not in q:
            out.append(q)
    return out


def substitute(rng, quote, k):
    letters = [i for i, c in enumerate(quote) if c.isascii() and c.isalpha() and c.islower()]
    chosen = []
    for i in rng.sample(letters, len(letters)):
        if all(abs(i - j) > 3 for j in chosen):
            chosen.append(i)
        if len(chosen) == k:
            break
    q = list(quote)
    for i in chosen:
        around = {quote[i]} | {quote[j] for j in (i - 1, i + 1) if 0 <= j < len(quote)}
        q[i] = rng.choice([c for c in "abcdefghijklmnopqrstuvwxyz" if c not in around])
    return "".join(q), len(chosen)


def main():
    rng = random.Random(20261122)
    vocab = sorted(set(re.findall(r"[a-z]{4,}", DOC.lower())))
    claims = []
    texts = passages(rng, 900)
    for i in range(1000):
        cid = f"EV{i + 1:04d}"
        if i % 10 < 7:
            quote, kind, edits = texts[(i // 10) * 9 + i % 10], "verbatim", 0
        elif i % 10 < 9:
            base = texts[(i // 10) * 9 + i % 10]
            quote, edits = substitute(rng, base, rng.randint(1, 3))
            kind = "edited"
        else:
            quote = " ".join(rng.choice(vocab) for _ in range(rng.randint(6, 20)))
            kind, edits = "absent", 0
        claims.append({
            "id": cid,
            "task_id": f"P{i // 100 + 1}.T{i % 100 + 1:03d}",
            "quote": quote,
            "evidence_type": "direct_quote",
            "bench": {"kind": kind, "edits": edits},
        })
    # plain_text: the file is text extracted from HTML (with `#` headings); read as
    # markdown, text such as `MyBox<String>` or `[profile.*]` would be inline markup
    out = {"source_metadata": {"filename": "rust-book.md", "format": "plain_text"}, "claims": claims}
    path = HERE / "data" / "claims-1000.json"
    path.write_text(json.dumps(out, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"wrote {path} ({path.stat().st_size} bytes)", file=sys.stderr)


if __name__ == "__main__":
    main()
