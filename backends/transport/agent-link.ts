// The life cycle of an agent started as a long-lived command whose standard input and output are its
// channel (the local agent, a Slurm pilot's agent through srun): up once it answers, down when its channel
// closes or an operation misses its deadline (a hung agent answers nothing), listeners told once each time.
import { EndpointDownError } from './endpoint.js';
import { withDeadline } from './deadline.js';
import { AgentSession, type Channel } from './agent-session.js';

export class AgentLink {
  private agent: AgentSession | undefined;
  private channel: Channel | undefined;
  private generation = 0;
  private readonly downListeners: ((reason: string) => void)[] = [];

  constructor(
    private readonly label: string,
    /** What a down listener hears when the channel closes by itself. */
    private readonly endedReason: string,
  ) {}

  /** Starts the agent (`open` gives its channel); rejects with EndpointDownError past `startS`. */
  async connect(open: () => Promise<Channel>, startS: number): Promise<void> {
    if (this.agent) return;
    const generation = ++this.generation;
    let channel: Channel | undefined;
    try {
      channel = await withDeadline(open(), startS, `${this.label}: the agent's command did not start within ${startS} s`, () => undefined);
      const opened = channel;
      this.agent = await withDeadline(AgentSession.attach(opened, this.label), startS, `${this.label}: the agent did not start within ${startS} s`, () => opened.close());
    } catch (err) {
      channel?.close();
      throw err instanceof EndpointDownError ? err : new EndpointDownError(`${this.label}: ${(err as Error).message}`);
    }
    this.channel = channel;
    channel.on('close', () => this.wentDown(generation, this.endedReason));
  }

  isUp(): boolean {
    return this.agent !== undefined;
  }

  onDown(listener: (reason: string) => void): void {
    this.downListeners.push(listener);
  }

  /** Runs `op` on the agent; past `deadlineS` the link is dropped and counts as down. */
  on<T>(what: string, deadlineS: number, op: (agent: AgentSession) => Promise<T>): Promise<T> {
    const agent = this.agent;
    if (!agent) return Promise.reject(new EndpointDownError(`${this.label} is down`));
    const generation = this.generation;
    const late = `no answer to ${what} within ${deadlineS} s`;
    return withDeadline(op(agent), deadlineS, `${this.label} went down: ${late}`, () => this.wentDown(generation, late));
  }

  /** Down now (its job ended, say), whether or not the channel has noticed yet. */
  lost(reason: string): void {
    this.wentDown(this.generation, reason);
  }

  /** Ends the agent's input (it lets what runs finish, then exits); its channel is closed after `graceS`. */
  close(graceS: number): void {
    this.generation++;
    const channel = this.channel;
    this.agent?.close();
    this.agent = undefined;
    this.channel = undefined;
    if (channel) {
      const closeLater = setTimeout(() => channel.close(), graceS * 1000).unref();
      channel.on('close', () => clearTimeout(closeLater));
    }
  }

  private wentDown(generation: number, reason: string): void {
    if (generation !== this.generation || !this.agent) return;
    this.agent.close();
    this.agent = undefined;
    this.channel?.close();
    this.channel = undefined;
    for (const l of this.downListeners) l(reason);
  }
}
