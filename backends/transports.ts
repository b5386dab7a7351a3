// The one list of transports, keyed by the real grid file's host kind: the run controller and the prober
// find transports here and nowhere else. Adding a transport is one file (backends/<kind>/transport.ts,
// importing only backends/transport and the core) and one line below. An explicit list, not
// registration by import side effect, so that no import order can leave a transport out.
import { localTransport } from './local/transport.js';
import { slurmTransport } from './slurm/transport.js';
import { sshTransport } from './ssh/transport.js';
import { TransportRegistry } from './transport/registry.js';

export const TRANSPORTS = new TransportRegistry([localTransport, sshTransport, slurmTransport]);
