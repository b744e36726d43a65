#!/usr/bin/env python3
"""Writes the transcript fixtures of this directory from one short talk, in
the shapes real ASR engines produce (field names, nesting, number formats,
quirks such as WhisperX leaving numerals without timestamps). Run from this
directory: python3 make_fixtures.py. The outputs are committed; this script
documents where they come from. Word times are spread over each segment in
proportion to word length, rounded like the engines round them."""

import json
import re

SEGMENTS = [
    (0.00, 6.20, "Good morning, everyone. My name is Dana Whitfield, and today I want to talk about water."),
    (6.50, 13.00, "When I was nine, my grandmother showed me the river behind our old house."),
    (13.40, 19.80, 'She said: "Listen to it. Every drop has travelled further than you ever will."'),
    (20.50, 27.00, "In 2019, our town used 4.5 million litres a day, that's 30% more than ten years earlier."),
    (27.50, 33.00, "So here are three simple ways to save water at home."),
    (33.50, 40.00, "First, fix the leaks. A dripping tap wastes up to 5,000 litres a year."),
    (40.40, 47.00, "Second, take shorter showers. Four minutes is enough for almost everyone."),
    (47.50, 54.00, "Third, collect rain water for the garden instead of using the hose."),
    (60.00, 66.50, "Now, you might think: one household cannot change anything."),
    (67.00, 73.50, "But if every family on our street did these three things, we would save a lake."),
    (80.00, 86.00, "Um, I know it sounds small. It is small. That is the point."),
    (86.50, 93.00, "Small habits, repeated every day, become the culture of a town."),
    (110.00, 116.50, "So tomorrow morning, before you brush your teeth, think of that river."),
    (117.00, 124.00, "And that is why, every morning, I still walk down to the river behind our old house."),
    (124.50, 128.00, "Thank you."),
]
SPEAKER = "Dana Whitfield"


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


def bare(w):
    """OpenAI API word timestamps: punctuation removed, apostrophes kept."""
    return re.sub(r"[^\w']", "", w)


def numeric(w):
    return any(c.isdigit() for c in w)


ALL = [(s, e, t, words_of(s, e, t)) for s, e, t in SEGMENTS]
FULL = " ".join(t for _, _, t in SEGMENTS)


def dump(name, value):
    with open(name, "w", encoding="utf-8") as f:
        json.dump(value, f, indent=2, ensure_ascii=False)
        f.write("\n")


def ts(t, sep=","):
    h, rem = divmod(round(t * 1000), 3600_000)
    m, rem = divmod(rem, 60_000)
    s, ms = divmod(rem, 1000)
    return f"{h:02}:{m:02}:{s:02}{sep}{ms:03}"


# OpenAI API, response_format=verbose_json, timestamp_granularities=[word, segment]
dump("whisper_api_verbose.json", {
    "task": "transcribe", "language": "english", "duration": 128.4, "text": FULL,
    "segments": [{"id": i, "seek": int(s * 100) // 3000 * 3000, "start": s, "end": e, "text": " " + t,
                  "tokens": [50364 + i, 2205, 2446], "temperature": 0.0, "avg_logprob": -0.21,
                  "compression_ratio": 1.48, "no_speech_prob": 0.012} for i, (s, e, t, _) in enumerate(ALL)],
    "words": [{"word": bare(w), "start": a, "end": b} for _, _, _, ws in ALL for w, a, b in ws],
})

# openai-whisper (Python package), transcribe(word_timestamps=True): words carry leading spaces
dump("openai_whisper_words.json", {
    "text": " " + FULL, "language": "en",
    "segments": [{"id": i, "seek": 0, "start": s, "end": e, "text": " " + t, "tokens": [1, 2],
                  "temperature": 0.0, "avg_logprob": -0.2, "compression_ratio": 1.5, "no_speech_prob": 0.01,
                  "words": [{"word": " " + w, "start": a, "end": b, "probability": 0.93} for w, a, b in ws]}
                 for i, (s, e, t, ws) in enumerate(ALL)],
})

# WhisperX (align + diarize): numerals cannot be aligned and have no start/end/score
def wx_word(w, a, b):
    if numeric(w):
        return {"word": w, "speaker": "SPEAKER_00"}
    return {"word": w, "start": a, "end": b, "score": 0.91, "speaker": "SPEAKER_00"}


wx = [{"start": s, "end": e, "text": " " + t, "speaker": "SPEAKER_00", "words": [wx_word(*x) for x in ws]}
      for s, e, t, ws in ALL]
dump("whisperx.json", {"segments": wx, "word_segments": [w for seg in wx for w in seg["words"]], "language": "en"})

# whisper-timestamped
dump("whisper_timestamped.json", {
    "text": " " + FULL, "language": "en",
    "segments": [{"id": i, "seek": 0, "start": s, "end": e, "text": " " + t, "tokens": [1], "temperature": 0.0,
                  "avg_logprob": -0.2, "compression_ratio": 1.5, "no_speech_prob": 0.01, "confidence": 0.9,
                  "words": [{"text": w, "start": a, "end": b, "confidence": 0.9} for w, a, b in ws]}
                 for i, (s, e, t, ws) in enumerate(ALL)],
})

# The documented plain shape: segments with their words
dump("plain.json", {
    "language": "en",
    "segments": [{"start": s, "end": e, "text": t, "speaker": SPEAKER,
                  "words": [{"text": w, "start": a, "end": b} for w, a, b in ws]} for s, e, t, ws in ALL],
})

# Segments only, plain shape
dump("plain_segments.json", {"segments": [{"start": s, "end": e, "text": t} for s, e, t, _ in ALL]})

# whisper.cpp -oj
dump("whisper_cpp.json", {
    "systeminfo": "AVX = 1 | AVX2 = 1", "model": {"type": "base"}, "params": {"model": "models/ggml-base.en.bin", "language": "en"},
    "result": {"language": "en"},
    "transcription": [{"timestamps": {"from": ts(s), "to": ts(e)}, "offsets": {"from": round(s * 1000), "to": round(e * 1000)},
                       "text": " " + t} for s, e, t, _ in ALL],
})

# Deepgram pre-recorded, smart_format + paragraphs + diarize
dg_words = [{"word": bare(w).lower(), "start": a, "end": b, "confidence": 0.98, "punctuated_word": w, "speaker": 0,
             "speaker_confidence": 0.7} for _, _, _, ws in ALL for w, a, b in ws]
dump("deepgram.json", {
    "metadata": {"transaction_key": "deprecated", "request_id": "00000000-0000-4000-8000-000000000000",
                 "created": "2026-01-01T00:00:00.000Z", "duration": 128.4, "channels": 1},
    "results": {"channels": [{"alternatives": [{
        "transcript": FULL, "confidence": 0.99, "words": dg_words,
        "paragraphs": {"transcript": "\n" + FULL, "paragraphs": [
            {"sentences": [{"text": t, "start": s, "end": e}], "speaker": 0, "num_words": len(ws), "start": s, "end": e}
            for s, e, t, ws in ALL]},
    }]}]},
})

# Speechmatics JSON-v2: punctuation as separate results attached to the previous word
sm = []
for s, e, t, ws in ALL:
    for k, (w, a, b) in enumerate(ws):
        lead = re.match(r'^(["(]*)', w).group(1)
        core = w[len(lead):]
        trail = re.search(r'([^\w%]*)$', core).group(1)
        core = core[: len(core) - len(trail)] if trail else core
        for p in lead:
            sm.append({"alternatives": [{"confidence": 1.0, "content": p, "language": "en", "speaker": "S1"}],
                       "attaches_to": "next", "end_time": a, "is_eos": False, "start_time": a, "type": "punctuation"})
        sm.append({"alternatives": [{"confidence": 0.97, "content": core, "language": "en", "speaker": "S1"}],
                   "end_time": b, "start_time": a, "type": "word"})
        for p in trail:
            sm.append({"alternatives": [{"confidence": 1.0, "content": p, "language": "en", "speaker": "S1"}],
                       "attaches_to": "previous", "end_time": b, "is_eos": p in ".!?", "start_time": b,
                       "type": "punctuation"})
dump("speechmatics.json", {
    "format": "2.9", "job": {"created_at": "2026-01-01T00:00:00.000Z", "data_name": "talk.wav", "duration": 129, "id": "abc123"},
    "metadata": {"created_at": "2026-01-01T00:00:00.000Z", "type": "transcription",
                 "language_pack_info": {"adapted": False, "itn": True, "language_description": "English", "word_delimiter": " ",
                                        "writing_direction": "left-to-right"},
                 "transcription_config": {"language": "en", "diarization": "speaker"}},
    "results": sm,
})

# Amazon Transcribe (standard batch job output): times are strings, punctuation separate
items, n = [], 0
for _, _, _, ws in ALL:
    for w, a, b in ws:
        core = re.sub(r"[^\w%'$]+$", "", w).lstrip('"')
        items.append({"id": n, "type": "pronunciation", "alternatives": [{"confidence": "0.998", "content": core}],
                      "start_time": f"{a:.3f}", "end_time": f"{b:.3f}", "speaker_label": "spk_0"})
        n += 1
        for p in w[w.find(core) + len(core):]:
            items.append({"id": n, "type": "punctuation", "alternatives": [{"confidence": "0.0", "content": p}]})
            n += 1
dump("aws_transcribe.json", {
    "jobName": "talk", "accountId": "000000000000", "status": "COMPLETED",
    "results": {"language_code": "en-US", "transcripts": [{"transcript": FULL}], "items": items,
                "audio_segments": [{"id": i, "transcript": t, "start_time": f"{s:.3f}", "end_time": f"{e:.3f}",
                                    "speaker_label": "spk_0", "items": []} for i, (s, e, t, _) in enumerate(ALL)]},
})

# SubRip: BOM, CRLF, two-line cues, markup
srt = []
for i, (s, e, t, _) in enumerate(ALL, 1):
    words = t.split()
    body = t if len(words) < 9 else " ".join(words[: len(words) // 2]) + "\n" + " ".join(words[len(words) // 2:])
    if i == 5:
        body = "<i>" + body + "</i>"
    if i == 11:
        body = "{\\an8}" + body
    srt.append(f"{i}\n{ts(s)} --> {ts(e)}\n{body}\n")
with open("talk.srt", "w", encoding="utf-8", newline="") as f:
    f.write("\ufeff" + "\n".join(srt).replace("\n", "\r\n"))

# WebVTT: header metadata, STYLE, NOTE, identifiers, cue settings, voice spans, entities
vtt = ["WEBVTT - water talk", "Kind: captions", "Language: en", "", "STYLE", "::cue(v[voice=\"Dana Whitfield\"]) { color: teal }", "",
       "NOTE Captions generated by ASR,", "checked by hand.", ""]
for i, (s, e, t, _) in enumerate(ALL, 1):
    if i % 3 == 0:
        vtt.append(f"cue-{i}")
    settings = " align:start position:10%" if i % 4 == 0 else ""
    body = t.replace("&", "&amp;")
    if i == 7:
        body = body.replace("Four minutes", "<c.highlight>Four minutes</c>")
    words = body.split()
    if len(words) >= 9:
        body = " ".join(words[: len(words) // 2]) + "\n" + " ".join(words[len(words) // 2:])
    vtt.append(f"{ts(s, '.')} --> {ts(e, '.')}{settings}")
    vtt.append(f"<v {SPEAKER}>{body}</v>" if i % 2 else f"<v.loud {SPEAKER}>{body}")
    vtt.append("")
with open("talk.vtt", "w", encoding="utf-8") as f:
    f.write("\n".join(vtt))
