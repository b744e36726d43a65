// The bundled samples (as text: `?raw`, see webpack.config.js), so the page
// works offline. The incident review is the repository's own sample (the CLI
// validates it by default); the travel notes exercise emoji (outside the BMP:
// UTF-16 and code point offsets differ after the first one), CJK, and curly
// quotes in the source against straight ones in a claim.

import incidentSource from '../../../../samples/incident-review.md?raw';
import incidentClaims from '../../../../samples/claims.json?raw';
import travelSource from '../../../samples/travel-notes.md?raw';
import travelClaims from '../../../samples/travel-claims.json?raw';

export const samples = [
  {
    id: 'incident',
    label: 'Incident review (markdown, 10 claims)',
    source: incidentSource,
    claims: incidentClaims,
  },
  {
    id: 'travel',
    label: 'Travel notes: emoji, CJK, curly quotes',
    source: travelSource,
    claims: travelClaims,
  },
];
