// The judge view's bundled samples (as text: `?raw`, see webpack.config.js),
// so the page works offline: harbour board minutes with claims that the demo
// jury finds VALID by consensus and by majority, a hung jury, a paraphrase
// (QUOTE_NOT_FOUND), a too-short quote (INSUFFICIENT) and a range outside the
// file; and a markdown report citing the minutes, a water-quality summary and
// a file that is not provided.

import minutesText from '../../../samples/judge/harbour-minutes.txt?raw';
import waterText from '../../../samples/judge/water-quality.txt?raw';
import claimsJson from '../../../samples/judge/claims.json?raw';
import reportText from '../../../samples/judge/report.md?raw';

export const minutes = { name: 'harbour-minutes.txt', text: minutesText };

/** @type {{ label: string, claim: string, quote: string, lines: string }[]} */
export const claimSamples = JSON.parse(claimsJson);

export const reportSample = {
  name: 'harbour-report',
  report: reportText,
  sources: [minutes, { name: 'water-quality.txt', text: waterText }],
};
