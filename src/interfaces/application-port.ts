// Port (1): the application. Whatever describes the sweep (a WorkDescription file, a sweep file, a
// generator) hands the scheduler an Application; the scheduler learns of its Works through sched_new_work.
import type { Application } from '../model/application.js';

export interface ApplicationPort {
  /** The whole application: every File and Work, with real and estimated sizes and run times. */
  application(): Application;
}
