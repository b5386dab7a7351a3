// The real grid file (JSON text) for SSH hosts we started: used by the loopback sshd harness
// (test/support/sshd.ts) and the network-namespace harness (netns-grid.ts). It lives under bench/ because the
// benchmarks (compiled by tsc, which does not compile test/) use it too.

export interface StartedSshHost {
  readonly name: string;
  readonly address: string;
  readonly port: number;
}

export interface StartedSshCluster {
  readonly name: string;
  readonly storage: string;
  readonly hosts: readonly StartedSshHost[];
}

export interface StartedSshGrid {
  readonly originDir: string;
  /** The known_hosts file listing every host's key. */
  readonly knownHosts: string;
  /** The one user and key every host accepts. */
  readonly user: string;
  readonly identityFile: string;
  readonly clusters: readonly StartedSshCluster[];
  /** Merged into the top level (it may replace origin, knownHosts or keepalive, not clusters). */
  readonly extra?: Record<string, unknown>;
  /** Every host's `slots`; when undefined the file leaves it out (the file's default: 1). */
  readonly slotsPerHost?: number;
}

/**
 * Every host with architecture 0 and a keepalive of 1 s x 3, so that a dead host is noticed quickly. The
 * file reads no ssh client configuration: the machine's ~/.ssh/config does not change what a test runs.
 */
export function realGridJsonForStartedHosts(g: StartedSshGrid): string {
  return JSON.stringify(
    {
      realgrid: 1,
      origin: g.originDir,
      knownHosts: g.knownHosts,
      sshConfig: false,
      keepalive: { intervalS: 1, countMax: 3 },
      ...g.extra,
      clusters: g.clusters.map((c) => ({
        name: c.name,
        storage: c.storage,
        hosts: c.hosts.map((h) => ({ name: h.name, address: h.address, port: h.port, user: g.user, identityFile: g.identityFile, arch: 0, slots: g.slotsPerHost })),
      })),
    },
    null,
    2,
  );
}
