// Grid description files (Berman et al. 1999, §7.2.1, appendix A): a `GridDescription <version>` header, then one
// `<time>:KIND args…` event per line. Events are returned sorted by time (stable); an event listed out
// of time order is moved and reported as a warning.
//
// Name rules, checked in time order: a name never added is an error; adding a cluster or host whose name
// is in use is an error; a host may only join a cluster that is present. Removing, or changing the
// behaviour of, a cluster or host that is absent at that time (removed earlier) is only a warning:
// appendix A itself changes the link of a cluster removed earlier. Re-adding a removed name is allowed.
import type { GridEvent, SourcePos } from '../model/grid.js';
import { Collector } from './collector.js';
import gridGrammar from './generated/grid.js';
import { LineTokens, T_NAME } from './line-lexer.js';
import { LineParser, syntaxDiagnostic, type Ref } from './line-parser.js';
import { closestName } from '../util/names.js';
import { NON_NEGATIVE, NON_NEGATIVE_INT, readNumber } from './numbers.js';
import { LineCursor } from './source-lines.js';
import { bracketName, bracketNumber, checkedName, plainNumber } from './write-tokens.js';
import type { Diagnostic } from '../util/diagnostics.js';
import { dirname, resolve } from 'node:path';
import { listAllocators } from '../batch/allocators/registry.js';
import { checkClusterChoice, ClusterSetupError } from '../batch/cluster-setup.js';
import { nodeAllocatorNames } from '../batch/machines/node-allocators/registry.js';
import { BAG, isTopology, MachineSpecError, parseMachine, type MachineSpec } from '../batch/machines/registry.js';
import { listBatchPolicies } from '../batch/policies/registry.js';
import { clusterSizeProblem, MAX_CORES_PER_NODE, MAX_MPL, MAX_NODES, MAX_TIMESHARED_CPUS } from '../batch/cluster-limits.js';

interface HeaderAst {
  readonly version: Ref;
}

interface EventAst {
  readonly time: Ref;
  readonly kind: Ref;
  readonly cluster?: Ref;
  readonly host?: Ref;
  readonly behavior?: Ref;
  readonly offset?: Ref;
  readonly arch?: Ref;
  readonly nodes?: Ref;
  /** ADD_BATCH_CLUSTER with a machine instead of a node count: its kind and its sizes (mesh, 8x8x4). */
  readonly machine?: readonly [Ref, Ref];
  readonly coresPerNode?: Ref;
  readonly policy?: Ref;
  /** ADD_BATCH_CLUSTER: the allocator's name, then its parameters (written with colons). */
  readonly allocator?: readonly Ref[];
  readonly hostBehavior?: Ref;
  readonly workload?: Ref;
  readonly workloadOffset?: Ref;
  /** ADD_BATCH_CLUSTER gang:MPL: the MPL, and where the option starts. */
  readonly gang?: Ref;
  readonly gangKeyword?: Ref;
}

const headerParser = new LineParser<HeaderAst>(gridGrammar, 'header');
const eventParser = new LineParser<EventAst>(gridGrammar, 'event');

export const GRID_HEADER_KEYWORD = 'GridDescription';
const KINDS = ['ADD_CLUSTER', 'ADD_HOST', 'REMOVE_CLUSTER', 'REMOVE_HOST', 'CHANGE_HOST_BEHAVIOR', 'CHANGE_CLUSTER_BEHAVIOR', 'ADD_BATCH_CLUSTER'];
const NODE_COUNT = { integer: true, min: 1, max: MAX_NODES } as const;
const CORES_PER_NODE = { integer: true, min: 1, max: MAX_CORES_PER_NODE } as const;
const GANG_MPL = { integer: true, min: 1, max: MAX_MPL } as const;

/** Where an event names a behaviour, and which kind of behaviour that makes it. */
export interface BehaviorRef {
  readonly name: string;
  readonly kind: 'link' | 'host';
  readonly pos: SourcePos;
}

export interface ParsedGridEvents {
  readonly version: string;
  readonly events: GridEvent[];
  readonly warnings: Diagnostic[];
}

/** An event with the columns of its arguments, for messages that point at one of them. */
interface Located {
  readonly event: GridEvent;
  readonly line: number;
  readonly clusterCol: number | undefined;
  readonly hostCol: number | undefined;
  readonly behaviorCol: number | undefined;
  /** ADD_BATCH_CLUSTER: where its host behaviour is named. */
  readonly hostBehaviorCol?: number | undefined;
}

export function parseGridEvents(text: string, file: string): ParsedGridEvents {
  const { version, events, warnings } = parseGridEventsDetailed(text, file);
  return { version, events, warnings };
}

/** parseGridEvents plus each behaviour reference (in sorted event order), for loadGrid. */
export function parseGridEventsDetailed(text: string, file: string): ParsedGridEvents & { behaviorRefs: BehaviorRef[] } {
  const c = new Collector(file);
  let version: string | undefined;
  const located: Located[] = [];
  let latest: { time: number; line: number } | undefined;
  let outOfOrder = false;

  const tokens = new LineTokens();
  const cursor = new LineCursor(text);
  while (cursor.advance() && !c.full) {
    const line = cursor.line;
    tokens.scan(text, cursor.start, cursor.end);
    if (version === undefined) {
      const h = headerParser.parse(tokens);
      if (h.ok) {
        version = tokens.value(h.value.version);
        continue;
      }
      version = '';
      const asEvent = eventParser.parse(tokens);
      c.add(syntaxDiagnostic(h.error, tokens, file, line, 'the grid description header', headerHint(tokens)));
      if (!asEvent.ok) continue;
    }
    const r = eventParser.parse(tokens);
    if (!r.ok) {
      c.add(syntaxDiagnostic(r.error, tokens, file, line, 'a grid event', kindHint(r.error.tokenIndex, tokens)));
      continue;
    }
    const a = r.value;
    const event = toEvent(a, tokens, c, line);
    if (event === undefined) continue;
    if (latest !== undefined && event.timeS < latest.time) {
      outOfOrder = true;
      c.warn(c.at(line, tokens, a.time), {
        message: `event at time ${event.timeS} is listed after an event at time ${latest.time} (line ${latest.line})`,
        found: `'${tokens.value(a.time)}'`,
        expected: `a time of ${latest.time} or later`,
        hint: 'events are applied in time order; this one was moved before the later ones (stable sort)',
      });
    } else {
      latest = { time: event.timeS, line };
    }
    const col = (ref: Ref | undefined) => (ref === undefined ? undefined : tokens.col(ref));
    located.push({ event, line, clusterCol: col(a.cluster), hostCol: col(a.host), behaviorCol: col(a.behavior), hostBehaviorCol: col(a.hostBehavior) });
  }
  if (version === undefined) {
    c.error(c.pos(1, 1), {
      message: 'empty grid description',
      found: 'no header line',
      expected: `'${GRID_HEADER_KEYWORD} <version>' followed by events`,
    });
  }

  // Array.prototype.sort is stable, so events at equal times keep their file order.
  const sorted = outOfOrder ? located.sort((a, b) => a.event.timeS - b.event.timeS) : located;
  checkNames(sorted, c);
  const behaviorRefs = checkBehaviorKinds(sorted, c);
  c.throwIfErrors();
  return { version: version ?? '', events: sorted.map((l) => l.event), warnings: c.warnings, behaviorRefs };
}

function headerHint(tokens: LineTokens): string {
  if (tokens.is(0, 'WorkDescription')) return 'this looks like an application description; a grid description starts with GridDescription';
  return `start the file with a line '${GRID_HEADER_KEYWORD} 1'`;
}

function kindHint(tokenIndex: number, tokens: LineTokens): string | undefined {
  if (tokenIndex >= tokens.count || tokens.types[tokenIndex] !== T_NAME) return undefined;
  const word = tokens.value(tokenIndex);
  const upper = word.toUpperCase();
  if (KINDS.includes(upper) && upper !== word) return `event kinds are written in capitals: ${upper}`;
  const near = closestName(upper, KINDS);
  return near !== undefined && near !== word ? `did you mean ${near}?` : undefined;
}

function toEvent(ast: EventAst, tokens: LineTokens, c: Collector, line: number): GridEvent | undefined {
  const timeS = readNumber(c, line, tokens, ast.time, 'time', NON_NEGATIVE);
  const offset = ast.offset === undefined ? 0 : readNumber(c, line, tokens, ast.offset, 'offset', NON_NEGATIVE_INT);
  const arch = ast.arch === undefined ? 0 : readNumber(c, line, tokens, ast.arch, 'architecture index', NON_NEGATIVE_INT);
  if (timeS === undefined || offset === undefined || arch === undefined) return undefined;
  const pos: SourcePos = c.pos(line, tokens.col(0));
  const name = (ref: Ref | undefined) => (ref === undefined ? '' : tokens.value(ref));
  const cluster = name(ast.cluster);
  const host = name(ast.host);
  const behavior = name(ast.behavior);
  const kind = tokens.value(ast.kind);
  switch (kind) {
    case 'ADD_CLUSTER':
      return { kind, timeS, pos, cluster, behavior, offset };
    case 'ADD_HOST':
      return { kind, timeS, pos, cluster, host, behavior, offset, arch };
    case 'REMOVE_CLUSTER':
      return { kind, timeS, pos, cluster };
    case 'REMOVE_HOST':
      return { kind, timeS, pos, host };
    case 'CHANGE_HOST_BEHAVIOR':
      return { kind, timeS, pos, host, behavior, offset };
    case 'CHANGE_CLUSTER_BEHAVIOR':
      return { kind, timeS, pos, cluster, behavior, offset };
    case 'ADD_BATCH_CLUSTER':
      return toBatchCluster(ast, tokens, c, line, { timeS, pos, cluster, behavior, offset, arch });
    default:
      throw new Error(`grid grammar produced an unknown event kind '${kind}'`);
  }
}

/**
 * ADD_BATCH_CLUSTER's own arguments: the node count or machine, the registered policy and allocator
 * (checked together, as on the command line: cluster-setup.ts), the workload file.
 */
function toBatchCluster(
  ast: EventAst,
  tokens: LineTokens,
  c: Collector,
  line: number,
  common: { timeS: number; pos: SourcePos; cluster: string; behavior: string; offset: number; arch: number },
): GridEvent | undefined {
  let machine: MachineSpec | undefined;
  let nodes: number | undefined;
  if (ast.machine !== undefined) {
    const text = `${tokens.value(ast.machine[0])}:${tokens.value(ast.machine[1])}`;
    try {
      machine = parseMachine(text);
      nodes = isTopology(machine) ? machine.nodes : undefined;
      if (nodes === undefined) throw new MachineSpecError(`'${text}' is not a mesh or torus`);
    } catch (err) {
      if (!(err instanceof MachineSpecError)) throw err;
      c.error(c.at(line, tokens, ast.machine[0]), { message: err.message, found: `'${text}'`, expected: 'a node count, or mesh:XxY[xZ] or torus:XxY[xZ]' });
    }
  } else {
    machine = BAG;
    nodes = readNumber(c, line, tokens, ast.nodes!, 'node count', NODE_COUNT);
  }
  const coresPerNode = readNumber(c, line, tokens, ast.coresPerNode!, 'cores per node', CORES_PER_NODE);
  const policyName = tokens.value(ast.policy!);
  const policies = listBatchPolicies().map((p) => p.name);
  let policy: string | undefined = policyName;
  if (!policies.includes(policyName)) {
    const near = closestName(policyName, policies);
    c.error(c.at(line, tokens, ast.policy!), { message: `unknown batch policy '${policyName}'`, found: `'${policyName}'`, expected: `one of ${policies.join(', ')}`, ...(near === undefined ? {} : { hint: `did you mean '${near}'?` }) });
    policy = undefined;
  }
  const allocatorRefs = ast.allocator!;
  let allocator: string | undefined = allocatorRefs.map((r) => tokens.value(r)).join(':');
  if (machine !== undefined && policy !== undefined) {
    try {
      checkClusterChoice(machine, allocator, policy);
    } catch (err) {
      if (!(err instanceof ClusterSetupError)) throw err;
      const near = closestName(allocator, isTopology(machine) ? nodeAllocatorNames() : listAllocators().map((a) => a.name));
      c.error(c.at(line, tokens, allocatorRefs[0]!), { message: err.message, found: `'${allocator}'`, expected: 'an allocator for this machine and policy', ...(near === undefined || near === allocator ? {} : { hint: `did you mean '${near}'?` }) });
      allocator = undefined;
    }
  }
  const workloadOffsetS = ast.workloadOffset === undefined ? 0 : readNumber(c, line, tokens, ast.workloadOffset, 'workload offset', NON_NEGATIVE);
  const gangMpl = ast.gang === undefined ? undefined : readNumber(c, line, tokens, ast.gang, 'gang MPL', GANG_MPL);
  if (ast.gang !== undefined) {
    // The gang core admits first come first served on the bag of cores (gang-cluster.ts).
    if (policy !== undefined && policy !== 'fcfs') {
      c.error(c.at(line, tokens, ast.policy!), { message: `a gang-scheduled batch cluster admits jobs first come first served; policy '${policy}' does not apply`, found: `'${policy}'`, expected: "'fcfs' with gang:MPL", hint: 'write fcfs, or leave out gang:MPL for a space-shared cluster' });
      policy = undefined;
    }
    if (machine !== undefined && isTopology(machine)) {
      c.error(c.at(line, tokens, ast.gangKeyword!), { message: `gang:MPL needs the bag of cores, not ${machine.name}`, found: `'gang:${tokens.value(ast.gang)}'`, expected: 'a node count with gang:MPL', hint: 'give a node count, or leave out gang:MPL' });
      machine = undefined;
    }
    const tooLarge = nodes === undefined || coresPerNode === undefined ? undefined : clusterSizeProblem(nodes, coresPerNode, true);
    if (tooLarge !== undefined) {
      c.error(c.at(line, tokens, ast.nodes ?? ast.coresPerNode!), { message: tooLarge, found: `'${nodes} ${coresPerNode}'`, expected: `nodes × cores per node up to ${MAX_TIMESHARED_CPUS} with gang:MPL`, hint: 'give fewer nodes or cores per node' });
      machine = undefined;
    }
  }
  if (machine === undefined || nodes === undefined || coresPerNode === undefined || policy === undefined || allocator === undefined || workloadOffsetS === undefined) return undefined;
  if (ast.gang !== undefined && gangMpl === undefined) return undefined;
  const workload = ast.workload === undefined ? {} : { workload: { path: resolve(dirname(common.pos.file), tokens.value(ast.workload)), offsetS: workloadOffsetS } };
  const onMesh = isTopology(machine) ? { machine: machine.name } : {};
  const gang = gangMpl === undefined ? {} : { gangMpl };
  return { kind: 'ADD_BATCH_CLUSTER', ...common, nodes, ...onMesh, coresPerNode, policy, allocator, hostBehavior: tokens.value(ast.hostBehavior!), ...workload, ...gang };
}

interface Life {
  present: boolean;
  addedLine: number;
  removedAt?: { timeS: number; line: number };
  cluster?: string;
}

function checkNames(sorted: readonly Located[], c: Collector): void {
  const firstAdd = new Map<string, Located>();
  for (const l of sorted) {
    const e = l.event;
    const key = e.kind === 'ADD_CLUSTER' || e.kind === 'ADD_BATCH_CLUSTER' ? `c:${e.cluster}` : e.kind === 'ADD_HOST' ? `h:${e.host}` : undefined;
    if (key !== undefined && !firstAdd.has(key)) firstAdd.set(key, l);
  }
  const clusters = new Map<string, Life>();
  const hosts = new Map<string, Life>();

  const colOf = (what: 'cluster' | 'host', l: Located) => c.pos(l.line, (what === 'cluster' ? l.clusterCol : l.hostCol) ?? 1);
  const unknown = (what: 'cluster' | 'host', name: string, l: Located): void => {
    const known = what === 'cluster' ? clusters : hosts;
    const later = firstAdd.get(`${what[0]}:${name}`);
    const near = closestName(name, known.keys());
    const hint =
      later !== undefined
        ? `it is first added at time ${later.event.timeS} (line ${later.line}); move this event after that`
        : near !== undefined
          ? `did you mean '${near}'?`
          : `add it with ${what === 'cluster' ? 'ADD_CLUSTER' : 'ADD_HOST'} first`;
    c.error(colOf(what, l), {
      message: `unknown ${what} '${name}' at time ${l.event.timeS}`,
      found: `'${name}'`,
      expected: `the name of a ${what} added before time ${l.event.timeS}`,
      hint,
    });
  };
  const absent = (what: 'cluster' | 'host', name: string, l: Located, life: Life, effect: string): void => {
    const when = life.removedAt ? ` (removed at time ${life.removedAt.timeS}, line ${life.removedAt.line})` : '';
    c.warn(colOf(what, l), {
      message: `${what} '${name}' is not in the grid at time ${l.event.timeS}${when}; ${effect}`,
    });
  };

  for (const l of sorted) {
    const e = l.event;
    switch (e.kind) {
      case 'ADD_CLUSTER':
      case 'ADD_BATCH_CLUSTER': {
        const life = clusters.get(e.cluster);
        if (life?.present) {
          c.error(colOf('cluster', l), {
            message: `duplicate cluster name '${e.cluster}': it is already in the grid (added at line ${life.addedLine})`,
            found: `'${e.cluster}'`,
            expected: 'a cluster name not in use at this time',
            hint: 'remove the cluster first (REMOVE_CLUSTER) or choose another name',
          });
        } else clusters.set(e.cluster, { present: true, addedLine: l.line });
        break;
      }
      case 'ADD_HOST': {
        const cl = clusters.get(e.cluster);
        if (cl === undefined) unknown('cluster', e.cluster, l);
        else if (!cl.present) {
          c.error(colOf('cluster', l), {
            message: `host '${e.host}' is added to cluster '${e.cluster}', which was removed at time ${cl.removedAt?.timeS} (line ${cl.removedAt?.line})`,
            found: `'${e.cluster}'`,
            expected: `a cluster present at time ${e.timeS}`,
            hint: 'add the cluster again (ADD_CLUSTER) before adding hosts to it',
          });
        }
        const life = hosts.get(e.host);
        if (life?.present) {
          c.error(colOf('host', l), {
            message: `duplicate host name '${e.host}': it is already in the grid (added at line ${life.addedLine})`,
            found: `'${e.host}'`,
            expected: 'a host name not in use at this time',
            hint: 'remove the host first (REMOVE_HOST) or choose another name',
          });
        } else hosts.set(e.host, { present: true, addedLine: l.line, cluster: e.cluster });
        break;
      }
      case 'REMOVE_CLUSTER': {
        const life = clusters.get(e.cluster);
        if (life === undefined) unknown('cluster', e.cluster, l);
        else if (!life.present) absent('cluster', e.cluster, l, life, 'removing it again has no effect');
        else {
          life.present = false;
          life.removedAt = { timeS: e.timeS, line: l.line };
          for (const h of hosts.values()) {
            if (h.present && h.cluster === e.cluster) {
              h.present = false;
              h.removedAt = life.removedAt;
            }
          }
        }
        break;
      }
      case 'REMOVE_HOST': {
        const life = hosts.get(e.host);
        if (life === undefined) unknown('host', e.host, l);
        else if (!life.present) absent('host', e.host, l, life, 'removing it again has no effect');
        else {
          life.present = false;
          life.removedAt = { timeS: e.timeS, line: l.line };
        }
        break;
      }
      case 'CHANGE_HOST_BEHAVIOR': {
        const life = hosts.get(e.host);
        if (life === undefined) unknown('host', e.host, l);
        else if (!life.present) absent('host', e.host, l, life, 'the new behaviour applies only if the host is added again');
        break;
      }
      case 'CHANGE_CLUSTER_BEHAVIOR': {
        const life = clusters.get(e.cluster);
        if (life === undefined) unknown('cluster', e.cluster, l);
        else if (!life.present) absent('cluster', e.cluster, l, life, 'the new behaviour applies only if the cluster is added again');
        break;
      }
    }
  }
}

/** Each behaviour is either a link's or a host's; naming one as both is an error. */
function checkBehaviorKinds(sorted: readonly Located[], c: Collector): BehaviorRef[] {
  const refs: BehaviorRef[] = [];
  const firstUse = new Map<string, BehaviorRef>();
  const use = (name: string, kind: 'link' | 'host', pos: SourcePos): void => {
    const ref: BehaviorRef = { name, kind, pos };
    const first = firstUse.get(name);
    if (first === undefined) firstUse.set(name, ref);
    else if (first.kind !== kind) {
      c.error(ref.pos, {
        message: `behaviour '${name}' is used here for a ${kind} but at line ${first.pos.line} for a ${first.kind}`,
        found: `'${name}'`,
        expected: `a ${kind} behaviour file`,
        hint: 'a behaviour file holds either link samples (latency, bandwidth) or host samples (CPU %); use separate files',
      });
      return;
    }
    refs.push(ref);
  };
  for (const l of sorted) {
    const e = l.event;
    if (!('behavior' in e) || l.behaviorCol === undefined) continue;
    const kind = e.kind === 'ADD_CLUSTER' || e.kind === 'CHANGE_CLUSTER_BEHAVIOR' || e.kind === 'ADD_BATCH_CLUSTER' ? 'link' : 'host';
    use(e.behavior, kind, c.pos(l.line, l.behaviorCol));
    if (e.kind === 'ADD_BATCH_CLUSTER' && l.hostBehaviorCol !== undefined) use(e.hostBehavior, 'host', c.pos(l.line, l.hostBehaviorCol));
  }
  return refs;
}

function eventLine(e: GridEvent): string {
  const head = `${plainNumber(e.timeS)}:${e.kind}`;
  switch (e.kind) {
    case 'ADD_CLUSTER':
    case 'CHANGE_CLUSTER_BEHAVIOR':
      return `${head} ${bracketName(e.cluster)} ${bracketName(e.behavior)} ${bracketNumber(e.offset)}`;
    case 'ADD_HOST':
      return `${head} ${bracketName(e.cluster)} ${bracketName(e.host)} ${bracketName(e.behavior)} ${bracketNumber(e.offset)} ${bracketNumber(e.arch)}`;
    case 'REMOVE_CLUSTER':
      return `${head} ${bracketName(e.cluster)}`;
    case 'REMOVE_HOST':
      return `${head} ${bracketName(e.host)}`;
    case 'CHANGE_HOST_BEHAVIOR':
      return `${head} ${bracketName(e.host)} ${bracketName(e.behavior)} ${bracketNumber(e.offset)}`;
    case 'ADD_BATCH_CLUSTER': {
      const size = e.machine === undefined ? bracketNumber(e.nodes) : e.machine.split(':').map(checkedName).join(':');
      const allocator = e.allocator.includes(':') ? e.allocator.split(':').map(checkedName).join(':') : bracketName(e.allocator);
      const base = `${head} ${bracketName(e.cluster)} ${bracketName(e.behavior)} ${bracketNumber(e.offset)} ${size} ${bracketNumber(e.coresPerNode)} ${bracketName(e.policy)} ${allocator} ${bracketName(e.hostBehavior)} ${bracketNumber(e.arch)}`;
      const withWorkload = e.workload === undefined ? base : `${base} ${bracketName(e.workload.path)} ${bracketNumber(e.workload.offsetS)}`;
      return e.gangMpl === undefined ? withWorkload : `${withWorkload} gang:${e.gangMpl}`;
    }
  }
}

/** The grid description text, in the layout of appendix A (positions in `pos` are ignored). */
export function writeGridEvents(version: string, events: readonly GridEvent[]): string {
  const lines = [`${GRID_HEADER_KEYWORD} ${checkedName(version)}`];
  for (const e of events) lines.push(eventLine(e));
  return lines.join('\n') + '\n';
}
