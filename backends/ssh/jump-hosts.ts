// Hosts reached through a jump host, as OpenSSH's ProxyJump: a cluster's compute nodes that only its login
// node can reach. The jump host's sshd opens the TCP connection to the host (a direct-tcpip channel), and the
// host's own SSH connection runs inside that channel, so its host key is checked as the host's, end to end.
//
// Every host behind one jump host shares one connection to it: sshd drops connections beyond MaxStartups
// that have not logged in yet, so fifty nodes connecting at once, each through a connection of its own,
// would be refused at random. Forwarded channels are not sessions: sshd's MaxSessions does not count them.
// The shared connection is opened when a host first needs it and closed when the last channel through it
// closes; it has the hosts' keep-alives, so a jump host that hangs takes its hosts down with it (their
// connections run through it) and they are retried as any host that went down. A jump host behind another
// (ProxyJump bastion,login) is reached in the same way: its shared connection runs in a channel through the
// one before it, so a bastion's connection carries one channel per login node behind it.
import { NodeSSH } from 'node-ssh';
import type { Duplex } from 'node:stream';
import type { SshLogin } from '../../src/realgrid/ssh-login.js';
import { EndpointDownError, PermanentEndpointError } from '../transport/endpoint.js';
import { withDeadline } from '../transport/deadline.js';
import { knownHostsName } from './known-hosts.js';
import { agentSocketOf, connectAs, destroyConnection, lastingLoginRefusal, type LoginTerms } from './login-connection.js';

/** How to open the shared connection (its deadline is also the channel's), and what to call the host in messages. */
export interface JumpTerms extends LoginTerms {
  /** The host reached through the jump host, as messages name it. */
  readonly label: string;
}

interface JumpConnection {
  readonly ssh: NodeSSH;
  readonly ready: Promise<void>;
  /** Channels open or being opened through it. */
  users: number;
}

const connections = new Map<string, JumpConnection>();

/** The reason code of a channel the server's policy refuses (RFC 4254 §5.1), as ssh2 hands it on. */
const SSH_OPEN_ADMINISTRATIVELY_PROHIBITED = 1;

function nameOf(jump: SshLogin): string {
  return `${jump.user}@${knownHostsName(jump.address, jump.port)}`;
}

/**
 * Why the shared connection could not be opened, said of no host in particular (every host waiting on it
 * hears it, each under its own name); `lasting` when no retry mends it.
 */
class JumpLoginError extends Error {
  constructor(
    message: string,
    readonly lasting: boolean,
  ) {
    super(message);
  }
}

function open(key: string, jump: SshLogin, terms: JumpTerms): JumpConnection {
  const ssh = new NodeSSH();
  let keyProblem: string | undefined;
  const ready = (async (): Promise<void> => {
    const agent = agentSocketOf(jump);
    if (jump.agent && agent === undefined) {
      throw new JumpLoginError(`its jump host ${nameOf(jump)} is to use ssh-agent, but SSH_AUTH_SOCK is not set; start ssh-agent or give the jump host an "identityFile"`, true);
    }
    // A jump host behind another (ProxyJump a,b): its connection runs in a channel through that one, shared
    // as any; its trouble is said of no host in particular, as this one's is.
    let sock: Duplex | undefined;
    if (jump.jump !== undefined) {
      try {
        sock = await throughJumpHost(jump.jump, jump.address, jump.port, { ...terms, label: `its jump host ${nameOf(jump)}` });
      } catch (err) {
        throw new JumpLoginError((err as Error).message, err instanceof PermanentEndpointError);
      }
    }
    try {
      await connectAs(ssh, jump, agent, terms, (reason) => (keyProblem = reason), sock);
    } catch (err) {
      sock?.destroy();
      const message = (err as Error).message;
      const jumpHost = `its jump host ${nameOf(jump)}`;
      if (keyProblem !== undefined) throw new JumpLoginError(`${jumpHost}: ${keyProblem}`, true);
      const refusal = lastingLoginRefusal(message, jump.identityFile);
      if (refusal !== undefined) throw new JumpLoginError(`${jumpHost}: ${refusal}`, true);
      throw new JumpLoginError(`cannot connect to ${jumpHost}: ${message}`, false);
    }
    const client = ssh.connection as unknown as NodeJS.EventEmitter;
    // node-ssh no longer listens once ready: an error (a keep-alive timeout) must not escape. The channels
    // through it close with it, and their hosts' connections say so.
    client.on('error', () => undefined);
    client.on('close', () => {
      if (connections.get(key) === connection) connections.delete(key);
    });
  })();
  const connection: JumpConnection = { ssh, ready, users: 0 };
  ready.catch(() => {
    if (connections.get(key) === connection) connections.delete(key);
    destroyConnection(ssh);
  });
  return connection;
}

function release(key: string, connection: JumpConnection): void {
  if (--connection.users > 0) return;
  if (connections.get(key) === connection) connections.delete(key);
  destroyConnection(connection.ssh);
}

/**
 * A channel through the jump host to `address:port`, for the host's SSH connection to run in. The jump
 * host's login and the channel's opening each have the deadline; failures are EndpointDownError (retried)
 * but for those no retry mends (a refused host key or login, forwarding disabled): PermanentEndpointError.
 */
export async function throughJumpHost(jump: SshLogin, address: string, port: number, terms: JumpTerms): Promise<Duplex> {
  // The whole login, the jump hosts it goes through included: one connection per way of reaching the machine.
  const key = JSON.stringify([jump, terms.acceptNew]);
  let connection = connections.get(key);
  if (connection === undefined) {
    connection = open(key, jump, terms);
    connections.set(key, connection);
  }
  connection.users++;
  const jumpHost = `its jump host ${nameOf(jump)}`;
  const late = `${terms.label}: ${jumpHost} did not answer within ${terms.deadlineS} s`;
  try {
    await withDeadline(connection.ready, terms.deadlineS, late, () => undefined);
    const opening = connection.ssh.forwardOut('127.0.0.1', 0, address, port);
    // Opened after the deadline (a target that took long to answer the jump host): closed at once.
    const channel = await withDeadline(opening, terms.deadlineS, `${terms.label}: ${jumpHost} did not open a connection to ${knownHostsName(address, port)} within ${terms.deadlineS} s`, () => {
      opening.then((late) => late.destroy(), () => undefined);
    });
    const owner = connection;
    // The target gone (its TCP connection ended), the jump host's sshd closes the channel only once this
    // side has closed it too: the host's connection, done for, may no longer be there to.
    channel.once('end', () => channel.destroy());
    channel.once('close', () => release(key, owner));
    return channel;
  } catch (err) {
    release(key, connection);
    if (err instanceof EndpointDownError || err instanceof PermanentEndpointError) throw err;
    if (err instanceof JumpLoginError) throw err.lasting ? new PermanentEndpointError(`${terms.label}: ${err.message}`) : new EndpointDownError(`${terms.label}: ${err.message}`);
    const target = knownHostsName(address, port);
    if ((err as { reason?: unknown }).reason === SSH_OPEN_ADMINISTRATIVELY_PROHIBITED) {
      throw new PermanentEndpointError(`${terms.label}: ${jumpHost} refuses to forward connections to ${target} (AllowTcpForwarding or PermitOpen in its sshd_config)`);
    }
    throw new EndpointDownError(`${terms.label}: ${jumpHost} could not open a connection to ${target}: ${(err as Error).message}`);
  }
}
