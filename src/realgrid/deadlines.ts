// The deadlines a real grid file may set (`"deadlines"`), in seconds, and their defaults: part of the
// file's model, so the file's reader needs nothing of the transports that enforce them
// (backends/transport/deadline.ts).

export interface Deadlines {
  /** A short command on a host (create or remove a directory, hash outputs, kill a task). */
  readonly commandS: number;
  /** The load probe, which is also the heartbeat: a host that misses it is suspected of hanging. */
  readonly probeS: number;
  /** A connection's set-up: the SSH handshake, then a first command through the login shell. */
  readonly loginS: number;
  /** The bandwidth assumed for a transfer before the link's has been measured, bytes/s. */
  readonly assumedBandwidthBps: number;
}

export const DEFAULT_DEADLINES: Deadlines = { commandS: 60, probeS: 15, loginS: 30, assumedBandwidthBps: 100_000 };
