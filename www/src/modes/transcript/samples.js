// The transcript mode's bundled samples (as text: `?raw`, see
// webpack.config.js), so the page works offline: one short speech as Whisper
// JSON with word timings and as SRT subtitles (segment timings), and an
// evaluation whose items pass and fail each check of spec 001 (written by
// www/samples/transcript/make_samples.py).

import whisper from '../../../samples/transcript/bicycle-whisper.json?raw';
import srt from '../../../samples/transcript/bicycle.srt?raw';
import evaluation from '../../../samples/transcript/bicycle-evaluation.json?raw';

export const samples = [
  { id: 'whisper', label: 'Speech: Whisper JSON, word timings', transcript: whisper, items: evaluation },
  { id: 'srt', label: 'Speech: SRT subtitles, segment timings', transcript: srt, items: evaluation },
];
