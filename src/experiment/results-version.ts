// The version of what a simulated run computes. Bump it when a change alters the results of a simulation
// without adding an option (a heuristic's tie-break, the simulator's integration, a default): the
// experiment cache's key holds it, so results computed before the change are not served after it.
// test/experiment/results-fingerprint.test.ts fails when the results change and this number does not.
// 2: the lower bound stored with each cached run gained the startup bound (lower-bound.ts); the simulated
//    results themselves did not change.
// 3: EASY backfilling counts the cores of every running job expected to end at the shadow time (it counted
//    only the first that made the head job fit); batch clusters under EASY start some jobs earlier. A batch
//    cluster's utilization counts the jobs still running when the simulation ends.
// 4: a periodic scheduling event that finds no Work to do and none queued runs no plan (scheduler.ts): fewer
//    plan calls (planCalls, the run record's plan events); the link FIFOs are no longer re-sorted then.
// 5: a failure that gives Works back runs do_schedule() at once (scheduler.ts): a host idle at that moment
//    takes them (the work queue) or asks for a plan, instead of waiting for the next scheduling event. The
//    appendix example's work queue and Min-min end 100 s sooner.
export const RESULTS_VERSION = 5;
