// The agent (backends/transport/agent.pl) and the controller's side of it, on this machine: the channel is a
// local `sh -c` process instead of an SSH exec channel, the agent the same perl program that runs on hosts.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { downloadInParts, PART_BYTES, uploadInParts } from '../../backends/transport/agent-parts.js';
import { AgentSession, taskExitOf, type ExecClient } from '../../backends/transport/agent-session.js';
import { EndpointDownError } from '../../backends/transport/endpoint.js';

const children: ChildProcess[] = [];
const scratchDirs: string[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const d of scratchDirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fresh directory for the test's files, removed after it. */
function scratchDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gridsweep-agent-'));
  scratchDirs.push(dir);
  return dir;
}

/** Runs the channel's command with the local shell, as sshd would on a host. */
const localClient: ExecClient = {
  exec(command, callback) {
    const child = spawn('sh', ['-c', command], { stdio: ['pipe', 'pipe', 'pipe'] });
    // A test kills the agent under the session: a write to its stdin may then fail with EPIPE, as a write
    // to a dead host's channel would; the session learns of it from the close, so the error is expected.
    child.stdin.on('error', () => undefined);
    children.push(child);
    callback(undefined, {
      write: (data) => child.stdin.write(data),
      end: () => child.stdin.end(),
      close: () => child.kill(),
      on: (event: 'data' | 'close', fn: (data: Buffer) => void) => (event === 'data' ? child.stdout.on('data', fn) : child.on('close', () => (fn as () => void)())),
      stderr: { on: (_event, fn) => child.stderr.on('data', fn) },
    } as Parameters<Parameters<ExecClient['exec']>[1]>[1]);
  },
};

describe('the agent', () => {
  it('runs many commands at once on one channel, each answered with its output and how it ended', async () => {
    const agent = await AgentSession.open(localClient, 'here');
    const started = Date.now();
    const [slow, fails, killed, text] = await Promise.all([
      agent.run('sleep 0.5; echo slow'),
      agent.run('echo out; echo err >&2; exit 3'),
      agent.run('kill -TERM $$'),
      agent.run("printf 'caf\\303\\251 \\342\\234\\223\\n' >&2; printf '%s' \"$PWD\""),
    ]);
    expect(slow).toEqual({ stdout: 'slow\n', stderr: '', code: 0, signal: null });
    expect(fails).toEqual({ stdout: 'out\n', stderr: 'err\n', code: 3, signal: null });
    expect(killed).toMatchObject({ code: null, signal: 'TERM' });
    expect(text.stderr).toBe('café ✓\n');
    expect(text.code).toBe(0);
    // Run at once, not one after another.
    expect(Date.now() - started).toBeLessThan(2000);
    const many = await Promise.all(Array.from({ length: 200 }, (_, i) => agent.run(`echo ${i}`)));
    expect(many.map((r) => r.stdout)).toEqual(Array.from({ length: 200 }, (_, i) => `${i}\n`));
    agent.close();
  });

  it('starts beside the scratch directories of agents killed outright, whatever pid it gets', async () => {
    // An agent killed with SIGKILL leaves its scratch directory; one named after the pid made a later
    // agent with that recycled pid die at start. Fill the next pids' names, as a long suite does.
    const tmp = mkdtempSync(join(tmpdir(), 'gridsweep-agent-tmp-'));
    try {
      const last = Number(readFileSync('/proc/sys/kernel/ns_last_pid', 'utf8'));
      for (let pid = last; pid < last + 300; pid++) mkdirSync(join(tmp, `gridsweep-agent-${pid}`));
      const saved = process.env['TMPDIR'];
      process.env['TMPDIR'] = tmp;
      try {
        const agent = await AgentSession.open(localClient, 'here');
        expect((await agent.run('echo up')).stdout).toBe('up\n');
        agent.close();
      } finally {
        if (saved === undefined) delete process.env['TMPDIR'];
        else process.env['TMPDIR'] = saved;
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('keeps only the last 4000 bytes of standard error', async () => {
    const agent = await AgentSession.open(localClient, 'here');
    const r = await agent.run("head -c 10000 /dev/zero | tr '\\0' a >&2; echo end >&2");
    expect(r.stderr.length).toBe(4000);
    expect(r.stderr.endsWith('aaaend\n')).toBe(true);
    agent.close();
  });

  it('prepares, runs and measures a task itself: inputs linked, outputs hashed, its process group noted, standard output discarded', async () => {
    const scratch = scratchDir();
    writeFileSync(join(scratch, 'stored-input'), 'model\n');
    const agent = await AgentSession.open(localClient, 'here');
    const dir = join(scratch, 'work', 'w1.a1');
    const r = await agent.task({
      dir,
      argv: ['sh', '-c', 'cat in/model.txt in/model.txt > out/result.txt; cat .gridsweep.pid > pgid; echo warning >&2; echo discarded', 'task'],
      links: [[join(scratch, 'stored-input'), 'in/model.txt']],
      dirs: ['in', 'out'],
      outputs: ['out/result.txt', 'out/never-written.txt'],
    });
    const sha = createHash('sha256').update('model\nmodel\n').digest('hex');
    expect(r).toEqual({ code: 0, signal: null, stderr: 'warning\n', outputs: [[12, sha], null] });
    expect(readFileSync(join(dir, 'out/result.txt'), 'utf8')).toBe('model\nmodel\n');
    // While it ran, its process group was noted for a cancel; once it ended, how it ended took its place.
    expect(Number(readFileSync(join(dir, 'pgid'), 'utf8'))).toBeGreaterThan(1);
    expect(readFileSync(join(dir, '.gridsweep.exit'), 'utf8')).toBe('0\n');
    expect(readdirSync(dir).sort()).toEqual(['.gridsweep.exit', '.gridsweep.stderr', 'in', 'out', 'pgid']);
    // A command that does not exist, and a working directory that cannot be made.
    expect(await agent.task({ dir: join(scratch, 'work', 'w2'), argv: ['no-such-command-here'], links: [], dirs: [], outputs: [] })).toMatchObject({ code: 127, stderr: expect.stringContaining('cannot run no-such-command-here') });
    expect(await agent.task({ dir: '/proc/no/such/dir', argv: ['true'], links: [], dirs: [], outputs: [] })).toMatchObject({ code: 200, stderr: expect.stringContaining('cannot make /proc/no/such/dir') });
    agent.close();
  });

  it('with "keep", keeps standard output and sends back the last bytes of both streams and their sizes', async () => {
    const scratch = scratchDir();
    const agent = await AgentSession.open(localClient, 'here');
    const dir = join(scratch, 'work', 'w1.a1');
    // stdout: "0123456789" then the bytes 255 0 10 (13 bytes); keep 5: its last 5 bytes are "8", "9", 255, 0,
    // 10 (0x38 0x39 0xff 0x00 0x0a). stderr: nothing (size 0, empty tail).
    const r = await agent.task({ dir, argv: ['sh', '-c', "printf '0123456789\\377\\0\\n'", 'task'], links: [], dirs: [], outputs: [], keep: 5 });
    expect(r.kept).toEqual([
      [13, Buffer.from([0x38, 0x39, 255, 0, 10]).toString('base64')],
      [0, ''],
    ]);
    expect(taskExitOf(r).kept).toEqual({ stdout: Buffer.from([0x38, 0x39, 255, 0, 10]), stdoutBytes: 13, stderr: Buffer.alloc(0), stderrBytes: 0 });
    // The kept standard output is removed once sent (one file less for the controller to remove).
    expect(readdirSync(dir).sort()).toEqual(['.gridsweep.exit', '.gridsweep.stderr']);
    // Without "keep": standard output discarded, nothing kept.
    const plain = await agent.task({ dir: join(scratch, 'work', 'w2.a1'), argv: ['sh', '-c', 'echo hi'], links: [], dirs: [], outputs: [] });
    expect(plain.kept).toBeUndefined();
    agent.close();
  });

  it('sends outputs back whole with the exit while they fit the inline budget, in the order of the task', async () => {
    const scratch = scratchDir();
    const agent = await AgentSession.open(localClient, 'here');
    // 3 + 5000 + 3 bytes against a budget of 4000: the first and last come inline, the large one does not.
    const r = await agent.task({
      dir: join(scratch, 'work', 'w1.a1'),
      argv: ['sh', '-c', "printf 'one' > a; head -c 5000 /dev/zero > big; printf '\\377\\0\\n' > c", 'task'],
      links: [],
      dirs: [],
      outputs: ['a', 'big', 'c', 'missing'],
      inline: 4000,
    });
    const sha = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');
    const zeros = Buffer.alloc(5000);
    expect(r.outputs).toEqual([[3, sha('one'), Buffer.from('one').toString('base64')], [5000, sha(zeros)], [3, sha(Buffer.from([255, 0, 10])), Buffer.from([255, 0, 10]).toString('base64')], null]);
    const exit = taskExitOf(r);
    expect(exit.outputData).toEqual([Buffer.from('one'), undefined, Buffer.from([255, 0, 10]), undefined]);
    // Without a budget, nothing comes inline.
    const plain = await agent.task({ dir: join(scratch, 'work', 'w2.a1'), argv: ['sh', '-c', "printf 'one' > a"], links: [], dirs: [], outputs: ['a'] });
    expect(plain.outputs).toEqual([[3, sha('one')]]);
    expect(taskExitOf(plain).outputData).toBeUndefined();
    agent.close();
  });

  it('removes many directory trees in one request, and says which it could not remove', async () => {
    const scratch = scratchDir();
    const agent = await AgentSession.open(localClient, 'here');
    const dirs = Array.from({ length: 5 }, (_, i) => join(scratch, `w${i}`));
    for (const d of dirs) {
      mkdirSync(join(d, 'sub'), { recursive: true });
      writeFileSync(join(d, 'sub', 'f'), 'x');
    }
    await agent.remove([...dirs, join(scratch, 'never-made')]);
    expect(readdirSync(scratch)).toEqual([]);
    // A tree in a directory it may not write to (root is not stopped by permissions: /proc is).
    await expect(agent.remove([join(scratch, 'gone'), '/proc/1/fd'])).rejects.toThrow(/^here: cannot remove \/proc\/1\/fd: .*\n(.*\n){4}and \d+ more$/);
    agent.close();
  });

  it('writes and reads small files whole, and says when one is too large to read inline', async () => {
    const scratch = scratchDir();
    const agent = await AgentSession.open(localClient, 'here');
    const bytes = Buffer.from([0, 1, 2, 200, 255, 10]);
    await agent.write(join(scratch, 'f'), bytes);
    expect(readFileSync(join(scratch, 'f'))).toEqual(bytes);
    expect(await agent.read(join(scratch, 'f'), 100)).toEqual(bytes);
    expect(await agent.read(join(scratch, 'f'), 5)).toBeUndefined();
    await expect(agent.read(join(scratch, 'missing'), 100)).rejects.toThrow(/here: cannot read .*missing/);
    await expect(agent.write(join(scratch, 'no-dir', 'f'), bytes)).rejects.toThrow(/here: cannot write/);
    agent.close();
  });

  it('writes and reads files of any size a part at a time (agent-parts.ts), bytes above 127 and empty files included', async () => {
    const scratch = scratchDir();
    const agent = await AgentSession.open(localClient, 'here');
    const bytes = Buffer.from(Array.from({ length: 2 * PART_BYTES + 7 }, (_, i) => (i * 2654435761) >>> 24));
    writeFileSync(join(scratch, 'local'), bytes);
    await uploadInParts(agent, join(scratch, 'local'), join(scratch, 'remote'));
    expect(readFileSync(join(scratch, 'remote')).equals(bytes)).toBe(true);
    expect(readdirSync(scratch).sort()).toEqual(['local', 'remote']); // the .part file was renamed
    await downloadInParts(agent, join(scratch, 'remote'), join(scratch, 'back'));
    expect(readFileSync(join(scratch, 'back')).equals(bytes)).toBe(true);
    writeFileSync(join(scratch, 'empty'), '');
    await uploadInParts(agent, join(scratch, 'empty'), join(scratch, 'empty-remote'));
    await downloadInParts(agent, join(scratch, 'empty-remote'), join(scratch, 'empty-back'));
    expect(readFileSync(join(scratch, 'empty-back')).length).toBe(0);
    expect(await agent.readPart(join(scratch, 'remote'), PART_BYTES, 5)).toEqual({ data: bytes.subarray(PART_BYTES, PART_BYTES + 5), sizeBytes: bytes.length });
    await expect(agent.readPart(join(scratch, 'missing'), 0, 5)).rejects.toThrow(/here: cannot read .*missing/);
    agent.close();
  });

  it('skips what the login shell prints before the agent starts (a welcome line, a notice without a newline)', async () => {
    const chattyClient: ExecClient = { exec: (command, callback) => localClient.exec(`echo "Welcome to the cluster"; printf 'module notice: '; ${command}`, callback) };
    const agent = await AgentSession.open(chattyClient, 'chatty');
    const r = await agent.run('echo hello');
    expect(r).toMatchObject({ code: 0, stdout: 'hello\n' });
  });

  it('fails every command in flight with EndpointDownError when the agent dies', async () => {
    const agent = await AgentSession.open(localClient, 'here');
    const pending = agent.run('sleep 30');
    children[0]!.kill('SIGKILL');
    await expect(pending).rejects.toThrow(EndpointDownError);
    await expect(pending).rejects.toThrow(/here: the agent's channel closed/);
    await expect(agent.run('true')).rejects.toThrow(EndpointDownError);
  });
});
