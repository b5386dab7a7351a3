// How a real grid file says to reach a machine over SSH (an SSH host, a Slurm cluster's login node): the
// schema properties both share, a jump host among them.
const SSH_MACHINE_PROPERTIES = {
  address: { type: 'string', minLength: 1, description: 'a host name or IP address' },
  port: { type: 'integer', minimum: 1, maximum: 65535, description: 'a TCP port' },
  user: { type: 'string', minLength: 1, description: 'a user name' },
  identityFile: { type: 'string', minLength: 1, description: 'a private key file' },
  agent: { const: true, description: 'true (use ssh-agent through SSH_AUTH_SOCK)' },
  knownHosts: { type: 'string', minLength: 1, description: 'a known_hosts file path' },
} as const;

const JUMP_HOST = { type: 'object', additionalProperties: false, required: ['address'], properties: SSH_MACHINE_PROPERTIES } as const;

export const SSH_CONNECTION_PROPERTIES = {
  ...SSH_MACHINE_PROPERTIES,
  jump: {
    oneOf: [
      { ...JUMP_HOST, description: 'a jump host {"address", "port", "user", "identityFile" or "agent": true, "knownHosts"}' },
      { type: 'array', minItems: 1, maxItems: 8, items: JUMP_HOST, description: 'a list of jump hosts, in the order they are reached (as ProxyJump a,b)' },
    ],
    description:
      'a jump host to connect through, as OpenSSH\'s ProxyJump: {"address", "port", "user", "identityFile" or "agent": true, "knownHosts"}, or a list of them reached one through the other; what one leaves out comes from the ssh client configuration for its address, else is the host\'s own (port 22)',
  },
} as const;

export interface RawSshMachine {
  address: string;
  port?: number;
  user?: string;
  identityFile?: string;
  agent?: true;
  knownHosts?: string;
}

export interface RawSshConnection extends RawSshMachine {
  /** One jump host, or several in the order they are reached. */
  jump?: RawSshMachine | RawSshMachine[];
}
