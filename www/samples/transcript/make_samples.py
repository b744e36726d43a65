#!/usr/bin/env python3
"""Writes the transcript mode's bundled samples from one short speech: a
Whisper JSON with word timings (the shape openai-whisper writes with
word_timestamps=True: segments, each with its words and their leading
spaces, punctuation and probabilities), the same speech as SRT subtitles
(segment timings only), and an evaluation whose items pass and fail each
check of spec 001. Run from this directory: python3 make_samples.py. The
outputs are committed; this script documents where they come from. Word
times are spread over each segment in proportion to word length."""

import json
import re

SEGMENTS = [
    (0.00, 5.80, "Good evening. My name is Priya Raman, and I learned to ride a bicycle when I was forty-one."),
    (6.30, 12.60, "For most of my life I told people I simply never had the time."),
    (13.00, 19.40, "The truth is that I was afraid of falling in front of strangers."),
    (20.00, 26.50, "Last spring my daughter, who is seven, offered to teach me in the school car park."),
    (27.00, 33.20, "She gave me three rules: look ahead, keep pedalling, and laugh when you fall."),
    (33.80, 40.50, "On the first Saturday I fell eleven times in forty minutes."),
    (41.00, 47.80, "On the second Saturday I fell four times, and I laughed every time."),
    (48.50, 54.90, "By June I was riding two kilometres to work, and I arrived smiling."),
    (60.00, 66.40, "Um, I want to be honest: I still wobble when a bus goes past."),
    (66.90, 73.50, "But fear is a poor reason to stay still, and I was never too old to start."),
    (74.00, 80.60, "So here is my challenge for you tonight."),
    (81.00, 87.90, "Pick one thing you have avoided for years because you might look foolish."),
    (88.40, 95.00, "Give it three Saturdays, keep pedalling, and laugh when you fall."),
    (101.00, 106.80, "Because the people watching you are not judging; they are remembering their own first try."),
    (107.20, 109.50, "Thank you."),
]

# What an LLM evaluator might answer: items that pass, and items that fail
# each check (contiguous match: a paraphrase and a 5-token quote; length: 17
# tokens; timestamp locality: 40 s away). One quote occurs twice (27 s and
# 88 s): the occurrence near its timestamp is chosen.
EVALUATION = {
    "summary": "A warm, well-structured personal story with a clear call to action.",
    "commendations": [
        {"text": "A memorable structure: the daughter's three rules frame the whole story.",
         "evidence_quote": "She gave me three rules: look ahead, keep pedalling", "evidence_timestamp": 27},
        {"text": "The refrain at the close echoes the opening rules.",
         "evidence_quote": "keep pedalling, and laugh when you fall", "evidence_timestamp": 90},
        {"text": "Honest about the fear behind the delay.",
         "evidence_quote": "I was scared of falling down in front of strangers", "evidence_timestamp": 14},
        {"text": "Concrete numbers make the first attempts vivid.",
         "evidence_quote": "eleven times in forty minutes", "evidence_timestamp": 35},
    ],
    "recommendations": [
        {"text": "Cut the filler before the admission of fear.",
         "evidence_quote": "Um, I want to be honest: I still wobble", "evidence_timestamp": 20},
        {"text": "Split the challenge into two shorter sentences.",
         "evidence_quote": "Pick one thing you have avoided for years because you might look foolish. Give it three Saturdays",
         "evidence_timestamp": 81},
        {"text": "Pause before the final call to action.",
         "evidence_quote": "Give it three Saturdays, keep pedalling, and laugh when you fall", "evidence_timestamp": 88},
    ],
}


def words_of(start, end, text):
    ws = text.split()
    weights = [len(re.sub(r"\W", "", w)) + 1 for w in ws]
    total = sum(weights)
    out, t = [], start
    for w, k in zip(ws, weights):
        d = (end - start) * k / total
        out.append((w, round(t, 2), round(t + d * 0.9, 2)))
        t += d
    return out


def dump(name, value):
    with open(name, "w", encoding="utf-8") as f:
        json.dump(value, f, indent=2, ensure_ascii=False)
        f.write("\n")


def whisper():
    segments = []
    for i, (s, e, text) in enumerate(SEGMENTS):
        ws = words_of(s, e, text)
        segments.append({
            "id": i, "seek": int(s * 100) // 3000 * 3000, "start": s, "end": e, "text": " " + text,
            "tokens": [50364 + i], "temperature": 0.0, "avg_logprob": -0.24, "compression_ratio": 1.42,
            "no_speech_prob": 0.01,
            "words": [{"word": " " + w, "start": a, "end": b, "probability": round(0.88 + (len(w) % 5) * 0.02, 2)}
                      for w, a, b in ws],
        })
    return {"text": " " + " ".join(t for _, _, t in SEGMENTS), "segments": segments, "language": "en"}


def stamp(t):
    ms = round(t * 1000)
    return f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"


def wrap(text, width=44):
    lines, line = [], ""
    for w in text.split():
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}".strip()
    lines.append(line)
    return "\n".join(lines)


def srt():
    return "".join(f"{i}\n{stamp(s)} --> {stamp(e)}\n{wrap(t)}\n\n" for i, (s, e, t) in enumerate(SEGMENTS, 1))


dump("bicycle-whisper.json", whisper())
with open("bicycle.srt", "w", encoding="utf-8") as f:
    f.write(srt())
dump("bicycle-evaluation.json", EVALUATION)
