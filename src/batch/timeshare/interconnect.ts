// The interconnect and the receiving NIC (Zhang and Sivasubramaniam 2004, section 3.2): a message sent at
// t is at its destination NIC at t + latency + bytes / bandwidth (a linear model; the network carries any
// number of messages at once), then the NIC DMAs messages into host memory one after another, each
// taking dmaS, in the order they reached it. Host CPUs are bypassed (user-level networking).

export interface NetworkModel {
  /** Fixed end-to-end latency per message. */
  readonly latencyS: number;
  readonly bandwidthBytesPerS: number;
  /** Receive DMA per message at the destination NIC (sequential). */
  readonly dmaS: number;
}

export function wireTimeS(net: NetworkModel, bytes: number): number {
  return net.latencyS + bytes / net.bandwidthBytesPerS;
}

/** The receive side of every node's NIC: when each one's DMA engine is next free. */
export class NicQueues {
  private readonly freeAtS: Float64Array;

  constructor(nodes: number, private readonly dmaS: number) {
    this.freeAtS = new Float64Array(nodes);
  }

  /** A message reached `node`'s NIC at nowS (calls come in time order): when it is in host memory. */
  deliverAtS(node: number, nowS: number): number {
    const at = Math.max(nowS, this.freeAtS[node]!) + this.dmaS;
    this.freeAtS[node] = at;
    return at;
  }
}
