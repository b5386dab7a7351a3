// What a scheduler is given to act on a grid, simulated or real: the grid OS and information ports, a
// forecaster, the clock, the one seeded random generator and the run record. Declared here once; the
// simulator, the real run controller and the replaying scheduler all hand a scheduler this.
import type { Clock } from '../interfaces/clock.js';
import type { ForecastingService } from '../interfaces/forecasting.js';
import type { GridOS } from '../interfaces/grid-os.js';
import type { InformationService } from '../interfaces/information.js';
import type { RecordSink } from '../record/events.js';
import type { Rng } from '../util/rng.js';

export interface SchedulerDeps {
  readonly gridOS: GridOS;
  readonly info: InformationService;
  readonly forecaster: ForecastingService;
  readonly clock: Clock;
  readonly rng: Rng;
  readonly record: RecordSink;
}
