// The order in which vitest starts the test files. With durations from an earlier run (its cache, kept on a
// developer's machine) vitest starts the longest files first; a clean clone, as CI runs, has no such cache,
// and vitest then starts the largest files first, which can leave a long file to start last and run alone.
// The longest files are those that drive real processes and wait on their deadlines (sshd hosts in network
// namespaces, a Slurm on loopback): they start first, in vitest's own order; then every other file.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Folders (relative to the repository) whose files run real hosts or daemons and mostly wait on them. */
export const LONG_FILE_FOLDERS: readonly string[] = ['test/netns/', 'test/slurm/'];

/** Whether a test file (its path relative to the repository) is among those started first. */
export function startsFirst(relativePath: string): boolean {
  const path = relativePath.replaceAll('\\', '/');
  return LONG_FILE_FOLDERS.some((folder) => path.startsWith(folder));
}

export default class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root.replaceAll('\\', '/').replace(/\/?$/, '/');
    const relative = (spec: TestSpecification): string => {
      const id = spec.moduleId.replaceAll('\\', '/');
      return id.startsWith(root) ? id.slice(root.length) : id;
    };
    return [...sorted.filter((spec) => startsFirst(relative(spec))), ...sorted.filter((spec) => !startsFirst(relative(spec)))];
  }
}
