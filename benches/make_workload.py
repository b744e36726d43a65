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

Also writes the two mixes of issue 21 item 3 (claims that are not in the
source, what an LLM writes when it does not quote), from the same text,
each with its own seed, 1000 direct quotes:
  claims-paraphrase-1000.json: 800 paraphrases (a source sentence of 60-200
       chars reworded: at least 3 of its words replaced by synonyms from the
       table below, contractions spelt out; never in the source), 100
       verbatim passages, 100 passages with 1-3 letter substitutions;
  claims-shuffled-1000.json: 800 shuffled sentences (a source sentence's
       words in a random other order, at least half of them moved; never in
       the source), 100 verbatim, 100 edited.
A paraphrase or a shuffled sentence must not be VALIDATED (the bench checks
it); verbatim and edited ones are checked as in the standard workload.

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


# Synonyms for words common in the book: a paraphrase replaces at least
# three of a sentence's words with these (the meaning kept, the wording not).
SYNONYMS = {
    "use": "employ", "uses": "employs", "using": "employing", "used": "employed",
    "function": "routine", "functions": "routines", "code": "source", "example": "instance",
    "examples": "instances", "create": "build", "creates": "builds", "make": "produce",
    "makes": "produces", "need": "require", "needs": "requires", "want": "wish",
    "show": "display", "shows": "displays", "write": "author", "run": "execute",
    "runs": "executes", "different": "distinct", "first": "initial", "new": "fresh",
    "also": "additionally", "get": "obtain", "gets": "obtains", "see": "observe",
    "add": "append", "program": "application", "programs": "applications",
    "error": "failure", "errors": "failures", "returns": "gives back", "return": "give back",
    "define": "declare", "defined": "declared", "allows": "lets", "allow": "let",
    "might": "may", "about": "regarding", "because": "since", "important": "crucial",
    "easy": "simple", "however": "yet", "often": "frequently", "help": "assist",
    "start": "begin", "just": "only", "change": "modify", "changes": "modifies",
    "call": "invoke", "calls": "invokes", "called": "invoked", "big": "large",
    "small": "little", "fix": "repair", "look": "glance", "each": "every",
    "value": "datum", "values": "data", "type": "kind", "types": "kinds",
    "way": "manner", "ways": "manners", "chapter": "section", "know": "understand",
    "work": "operate", "works": "operates", "feature": "capability",
    "features": "capabilities", "data": "information", "like": "such as",
    "enough": "sufficient", "method": "procedure", "methods": "procedures",
    "part": "portion", "parts": "portions", "next": "following", "useful": "handy",
    "build": "construct", "print": "output", "prints": "outputs", "contains": "holds",
    "instead": "rather", "project": "package", "problem": "issue", "problems": "issues",
    "common": "usual", "simple": "plain", "specific": "particular", "later": "afterwards",
    "check": "verify", "checks": "verifies", "ensure": "guarantee", "ensures": "guarantees",
    "able": "capable", "case": "situation", "cases": "situations", "keep": "retain",
    "take": "accept", "takes": "accepts", "hold": "keep", "holds": "keeps",
}
CONTRACTIONS = {
    "you’re": "you are", "we’re": "we are", "it’s": "it is", "don’t": "do not",
    "doesn’t": "does not", "can’t": "cannot", "we’ll": "we will", "you’ll": "you will",
    "isn’t": "is not", "won’t": "will not", "let’s": "let us", "that’s": "that is",
    "we’ve": "we have", "you’ve": "you have", "aren’t": "are not", "didn’t": "did not",
}


def sentences():
    """The document's sentences of 60-200 chars, within paragraphs."""
    out = []
    for p in DOC.split("\n\n"):
        if len(p) <= 220 or p.startswith("#"):
            continue
        for s in re.split(r"(?<=[.!?])\s+", " ".join(p.split())):
            if 60 <= len(s) <= 200:
                out.append(s)
    return out


FLAT = " ".join(DOC.split()).lower()


def in_source(quote):
    return " ".join(quote.split()).lower() in FLAT


def paraphrase(sentence):
    """`sentence` with its contractions spelt out and every word of the table
    replaced (case kept on the first letter); None when fewer than 3 are."""
    words = sentence.split(" ")
    changed = 0
    for i, w in enumerate(words):
        m = re.fullmatch(r"([(“\"]?)([A-Za-z’]+)([,.;:!?”)\"]*)", w)
        if not m:
            continue
        lead, core, tail = m.groups()
        low = core.lower()
        new = CONTRACTIONS.get(low) or SYNONYMS.get(low)
        if new is None:
            continue
        if core[0].isupper():
            new = new[0].upper() + new[1:]
        words[i] = lead + new + tail
        changed += 1
    return " ".join(words) if changed >= 3 else None


def shuffled(rng, sentence):
    """`sentence`'s words in another order, at least half of them moved."""
    words = sentence.split(" ")
    if len(words) < 8:
        return None
    for _ in range(20):
        order = words[:]
        rng.shuffle(order)
        if sum(a != b for a, b in zip(order, words)) * 2 >= len(words):
            return " ".join(order)
    return None


def write_mix(name, seed, make):
    """A mix: 800 claims of kind `name` made by `make(rng, sentence)`, 100
    verbatim passages, 100 edited ones, in a seeded order."""
    rng = random.Random(seed)
    pool = sentences()
    rng.shuffle(pool)
    made = []
    for s in pool:
        q = make(rng, s)
        if q is not None and not in_source(q) and 40 <= len(q) <= 2000:
            made.append(q)
        if len(made) == 800:
            break
    assert len(made) == 800, f"only {len(made)} {name} claims"
    texts = passages(rng, 200)
    items = [(q, name, 0) for q in made] + [(q, "verbatim", 0) for q in texts[:100]]
    for base in texts[100:]:
        q, edits = substitute(rng, base, rng.randint(1, 3))
        items.append((q, "edited", edits))
    rng.shuffle(items)
    claims = [
        {
            "id": f"EV{i + 1:04d}",
            "task_id": f"P{i // 100 + 1}.T{i % 100 + 1:03d}",
            "quote": quote,
            "evidence_type": "direct_quote",
            "bench": {"kind": kind, "edits": edits},
        }
        for i, (quote, kind, edits) in enumerate(items)
    ]
    out = {"source_metadata": {"filename": "rust-book.md", "format": "plain_text"}, "claims": claims}
    path = HERE / "data" / f"claims-{name}-1000.json"
    path.write_text(json.dumps(out, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"wrote {path} ({path.stat().st_size} bytes)", file=sys.stderr)


def main():
    write_standard()
    write_mix("paraphrase", 20261127, lambda rng, s: paraphrase(s))
    write_mix("shuffled", 20261128, shuffled)


def write_standard():
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
