// The connections to a real grid's machines over a run: connecting them all at the start without waiting
// for the slow ones, connecting one added later, reconnecting one that went down (back-off doubling from
// reconnectBaseS to reconnectMaxS), giving up on one that can never work (PermanentEndpointError), and the
// periodic load probe that is also the heartbeat (a machine that misses its deadline is dropped by its
// endpoint, which reports it down). What a machine that answers means for the run is the grid's business
// (MachineHooks.answered); timers set here die with the run.
import { PermanentEndpointError, type Endpoint, type LoadSample } from '../transport/endpoint.js';
import type { ProgressEvent } from '../transport/progress-events.js';
import { setLongTimeout, type LongTimeout } from '../../src/util/long-timeout.js';

export interface ConnectionOptions {
  /** Once one machine is up, how long the run waits for the others before it starts without them (they join when they answer). */
  readonly startGraceS: number;
  /** Seconds between load probes of each machine. */
  readonly samplePeriodS: number;
  /** Reconnection back-off: first wait and longest wait, seconds. */
  readonly reconnectBaseS: number;
  readonly reconnectMaxS: number;
}

export interface MachineHooks {
  /** A machine answered after connectAll's start (a slow starter, one added, one back after going down): offer its hosts. */
  answered(e: Endpoint): Promise<void>;
  /** False once the machine was removed from the run: it is not reconnected. */
  wanted(e: Endpoint): boolean;
  /** A load sample of a machine; `first`: the first answer of its cluster in this round (the link's latency). */
  probed(e: Endpoint, sample: LoadSample, first: boolean): void;
  log(event: ProgressEvent): void;
  internalError(err: unknown): void;
}

export class MachineConnections {
  private readonly unusable = new Set<Endpoint>();
  private readonly reconnecting = new Set<Endpoint>();
  private readonly timers = new Set<LongTimeout>();
  private probeTimer: NodeJS.Timeout | undefined;
  private started = false;
  private stopped = false;

  constructor(
    private readonly o: ConnectionOptions,
    private readonly hooks: MachineHooks,
  ) {}

  /**
   * Connects every machine of `clusters` (each a list of machines) and returns when all have answered, or
   * `startGraceS` after the first one is up: a hung login holds up only its own machine, which is offered
   * when it answers. Those that fail transiently are retried in the background. Then probes every machine,
   * now and every `samplePeriodS`.
   */
  async connectAll(clusters: () => readonly (readonly Endpoint[])[]): Promise<void> {
    let firstUp: () => void = () => undefined;
    const oneUp = new Promise<void>((resolve) => (firstUp = resolve));
    const all = Promise.all(
      clusters()
        .flat()
        .map(async (e) => {
          try {
            await e.connect();
          } catch (err) {
            this.connectFailed(e, err);
            return;
          }
          firstUp();
          if (this.started) this.answer(e);
        }),
    );
    await Promise.race([all, oneUp.then(() => new Promise((resolve) => setTimeout(resolve, this.o.startGraceS * 1000)))]);
    this.started = true;
    this.probeTimer = setInterval(() => void this.probeAll(clusters()), this.o.samplePeriodS * 1000);
    await this.probeAll(clusters());
  }

  /** A machine added while the run goes on: connected, then offered (or retried, or found unusable). */
  connectLate(e: Endpoint): void {
    void e.connect().then(
      () => this.answer(e),
      (err: unknown) => this.connectFailed(e, err),
    );
  }

  /** A machine that went down: tried again after the back-off, until it answers or leaves the run. */
  reconnect(e: Endpoint, attempt = 0): void {
    if (this.stopped || this.unusable.has(e) || !this.hooks.wanted(e) || (this.reconnecting.has(e) && attempt === 0)) return;
    this.reconnecting.add(e);
    const waitS = Math.min(this.o.reconnectMaxS, this.o.reconnectBaseS * 2 ** attempt);
    this.after(waitS, () => {
      void e.connect().then(
        () => {
          this.reconnecting.delete(e);
          if (this.stopped) return;
          if (!this.hooks.wanted(e)) {
            void e.close().catch(() => undefined);
            return;
          }
          this.answer(e);
        },
        (err: unknown) => {
          if (err instanceof PermanentEndpointError) {
            this.reconnecting.delete(e);
            this.connectFailed(e, err);
          } else this.reconnect(e, attempt + 1);
        },
      );
    });
  }

  /** Runs `fn` in `seconds`, unless the run has stopped by then. */
  after(seconds: number, fn: () => void): void {
    const t = setLongTimeout(() => {
      this.timers.delete(t);
      if (!this.stopped) fn();
    }, seconds * 1000);
    this.timers.add(t);
  }

  /** No more probes, reconnections or timers. */
  stop(): void {
    this.stopped = true;
    if (this.probeTimer) clearInterval(this.probeTimer);
    for (const t of this.timers) t.clear();
    this.timers.clear();
  }

  private answer(e: Endpoint): void {
    if (this.stopped || !this.hooks.wanted(e)) return;
    this.hooks.log({ kind: 'up', machine: e.spec.name });
    // Before the start is over, the start takes every machine that is up then.
    if (this.started) this.hooks.answered(e).catch((err: unknown) => this.hooks.internalError(err));
  }

  private connectFailed(e: Endpoint, err: unknown): void {
    if (err instanceof PermanentEndpointError) {
      this.unusable.add(e);
      this.hooks.log({ kind: 'unusable', machine: e.spec.name, reason: err.message });
      return;
    }
    this.hooks.log({ kind: 'down', machine: e.spec.name, reason: `cannot connect: ${(err as Error).message}` });
    this.reconnect(e);
  }

  /**
   * Probes every machine that is up, all at once: the probe is also the heartbeat. A cluster's latency is
   * its first answer's.
   */
  private async probeAll(clusters: readonly (readonly Endpoint[])[]): Promise<void> {
    await Promise.all(
      clusters.map(async (endpoints) => {
        let first = true;
        await Promise.all(
          endpoints
            .filter((e) => e.isUp())
            .map(async (e) => {
              try {
                const sample = await e.probe();
                this.hooks.probed(e, sample, first);
                first = false;
              } catch {
                // a machine that cannot be probed is either reported down by its endpoint or probed next time
              }
            }),
        );
      }),
    );
  }
}
