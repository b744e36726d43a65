// The evidence mode's Web Worker entry: the shared worker side
// (../../worker-host.js: the compiled library first, then one request at a
// time) with this mode's engine (worker-engine.js). A run that reads its
// source from a file awaits it; the page sends nothing more meanwhile (a new
// request replaces this worker, ../../worker-client.js).

import { serve } from '../../worker-host.js';
import { handle } from './worker-engine.js';

serve(handle);
