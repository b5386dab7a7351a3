// A loopback port for a server a harness starts (a test sshd, slurmctld, slurmd), chosen outside the
// kernel's range for outgoing connections' ports: a port merely free at the moment of asking, as listen(0)
// gives, may be taken by one of the many connections the tests open before the server binds it ("Address
// already in use"). Picked at random below that range (else above it), and checked free.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Linux's ip_local_port_range, or its default. */
function ephemeralRange(): [number, number] {
  try {
    const [lo, hi] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(lo) && Number.isInteger(hi)) return [lo!, hi!];
  } catch {
    // not Linux: its default
  }
  return [32768, 60999];
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

export async function freeServerPort(): Promise<number> {
  const [lo, hi] = ephemeralRange();
  const [from, to] = lo - 1024 >= 4096 ? [1024, lo - 1] : [hi + 1, 65535];
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = from + Math.floor(Math.random() * (to - from + 1));
    if (await isFree(port)) return port;
  }
  throw new Error(`no free loopback port found in ${from}-${to}`);
}
