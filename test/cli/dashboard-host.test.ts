// `--host` of the commands that start the dashboard, through the real CLI: the server listens on the
// loopback address given and on no other; a non-loopback address is refused with the SSH-tunnel hint.
// Only loopback addresses are ever listened on here.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/util/package-root.js';

const cli = join(PACKAGE_ROOT, 'dist/src/cli/main.js');
const dir = mkdtempSync(join(tmpdir(), 'gs-host-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const gridsweep = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: dir });

function status(url: string): Promise<number> {
  return new Promise((resolve, reject) => get(url, (res) => (res.resume(), resolve(res.statusCode ?? 0))).on('error', reject));
}

/** Whether something accepts a TCP connection at host:port. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

describe('dashboard --host', () => {
  it('listens on 127.0.0.2 when asked, and not on 127.0.0.1', async () => {
    const record = join(dir, 'run.jsonl');
    const sim = gridsweep('simulate', '--app', join(PACKAGE_ROOT, 'apps/fig11/fig11-100kb.app'), '--grid', join(PACKAGE_ROOT, 'griddescs/fig11/fig11.grid'), '--record', record);
    expect(sim.status).toBe(0);
    const child = spawn(process.execPath, [cli, 'dashboard', record, '--host', '127.0.0.2'], { cwd: dir });
    let out = '';
    child.stdout.setEncoding('utf8');
    const url = await new Promise<URL>((resolve, reject) => {
      child.stdout.on('data', (chunk: string) => {
        out += chunk;
        const m = /^dashboard: (\S+)$/m.exec(out);
        if (m) resolve(new URL(m[1]!));
      });
      child.once('exit', () => reject(new Error(`exited before printing its URL: ${out}`)));
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      expect(url.hostname).toBe('127.0.0.2');
      expect(await status(url.href)).toBe(200);
      expect(await accepts('127.0.0.2', Number(url.port))).toBe(true);
      expect(await accepts('127.0.0.1', Number(url.port))).toBe(false);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  });

  it('refuses an address off loopback with exit 2 and the SSH-tunnel hint, before listening', () => {
    const r = gridsweep('dashboard', 'none.jsonl', '--host', '0.0.0.0');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--host 0.0.0.0: the dashboard listens on loopback only');
    expect(r.stderr).toContain('ssh -L 8080:localhost:8080 login-node');
  });

  it('--host without --dashboard is a usage error, as --port is', () => {
    const r = gridsweep('simulate', '--app', 'a.app', '--grid', 'g.grid', '--host', '127.0.0.2');
    expect(r.stderr).toContain('--host goes with --dashboard');
    expect(r.status).toBe(2);
  });

  it('every command that starts a dashboard has --host and the tunnel hint in its help', () => {
    for (const name of ['simulate', 'run', 'experiment', 'dashboard']) {
      const help = gridsweep(name, '--help').stdout;
      expect(help, name).toMatch(/--host ADDR +dashboard address, a loopback one \(default 127\.0\.0\.1\)/);
      expect(help, name).toContain('`ssh -L 8080:localhost:8080 login-node`');
    }
  });
});
