// The cite mode's Web Worker entry: the shared worker side
// (../../worker-host.js) with this mode's engine (worker-engine.js).

import { serve } from '../../worker-host.js';
import { handle } from './worker-engine.js';

serve(handle);
