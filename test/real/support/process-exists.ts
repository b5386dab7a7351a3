// Whether a process id is still taken on this machine (a zombie not reaped yet counts): used to check that
// a cancelled task's processes are gone.

export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
