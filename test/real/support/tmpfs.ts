// Small tmpfs file systems for tests of a full origin: mounted under a temporary directory (tests run as
// root), unmounted and removed by `removeAll`. Where mounting is not permitted, `mount` returns undefined
// and `whyNot` says why, for the test to skip with.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export class Tmpfs {
  readonly base = mkdtempSync(join(tmpdir(), 'gridsweep-tmpfs-'));
  private readonly mounted: string[] = [];
  /** Why mounting failed, once it has. */
  whyNot: string | undefined;

  /** Mounts a tmpfs of `size` (mount(8)'s syntax: 300k) at a new directory `name`; undefined when not permitted. */
  mount(name: string, size: string): string | undefined {
    const dir = join(this.base, name);
    mkdirSync(dir);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
    } catch (err) {
      this.whyNot = `mount -t tmpfs is not permitted here (${(err as Error).message.split('\n')[0]})`;
      return undefined;
    }
    this.mounted.push(dir);
    return dir;
  }

  /** Gives the tmpfs at `dir` a new size (its files stay). */
  resize(dir: string, size: string): void {
    this.remount(dir, `size=${size}`);
  }

  /** Remounts the tmpfs at `dir` with `options` (mount(8)'s: ro, rw, size=1m). */
  remount(dir: string, options: string): void {
    execFileSync('mount', ['-o', `remount,${options}`, dir], { stdio: 'pipe' });
  }

  /** Unmounts every tmpfs (lazily if still busy) and removes the directories. */
  removeAll(): void {
    for (const dir of this.mounted.splice(0)) {
      try {
        execFileSync('umount', [dir], { stdio: 'pipe' });
      } catch {
        execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      }
    }
    rmSync(this.base, { recursive: true, force: true });
  }
}
