// gridsweep shipped to a grid's hosts as one file: the cell program (cell-entry.ts) and everything it
// imports (formats, generators, the simulator) bundled with esbuild into one ES module that needs Node.js
// >= 20 and nothing else (no native module, no node_modules). `npm run build` writes it to
// dist/gridsweep-cell.mjs; when it is missing (running from sources), it is bundled on first use.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from '../util/package-root.js';
import { GRIDSWEEP_VERSION } from '../version.js';
import { CELL_NODE_MAJOR, NO_SUITABLE_NODE_EXIT } from './cell-entry.js';

export const CELL_BUNDLE_NAME = 'gridsweep-cell.mjs';

const RUNNING_FROM_SOURCES = import.meta.url.endsWith('.ts');

/**
 * Run first in the bundle: a node older than CELL_NODE_MAJOR says so and exits NO_SUITABLE_NODE_EXIT; and
 * `require`, which bundled CommonJS modules (nearley) call for node's built-ins.
 */
const BANNER = [
  `if (Number(process.versions.node.split('.')[0]) < ${CELL_NODE_MAJOR}) { process.stderr.write('gridsweep: this host has node ' + process.version + '; gridsweep experiment cells need Node.js >= ${CELL_NODE_MAJOR}\\n'); process.exit(${NO_SUITABLE_NODE_EXIT}); }`,
  "import { createRequire as __gridsweepCreateRequire } from 'node:module';",
  'const require = __gridsweepCreateRequire(import.meta.url);',
].join('\n');

/** Bundles the cell program into `outFile` with esbuild (a build-time tool: an error says how to get it). */
export async function buildCellBundle(outFile: string): Promise<void> {
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch {
    throw new Error(`${CELL_BUNDLE_NAME} is missing and esbuild cannot be loaded to make it: run \`npm run build\` in the gridsweep checkout`);
  }
  const entry = fileURLToPath(new URL(`./cell-entry${RUNNING_FROM_SOURCES ? '.ts' : '.js'}`, import.meta.url));
  mkdirSync(dirname(outFile), { recursive: true });
  await esbuild.build({
    entryPoints: [entry],
    outfile: outFile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    define: { GRIDSWEEP_CELL_BUNDLE: 'true' },
    banner: { js: BANNER },
    legalComments: 'none',
    // version.ts reads package.json, which a host does not have: the bundle carries the version instead.
    plugins: [
      {
        name: 'gridsweep-version',
        setup(build) {
          const versionFile = fileURLToPath(new URL(`../version${RUNNING_FROM_SOURCES ? '.ts' : '.js'}`, import.meta.url));
          build.onResolve({ filter: /(^|\/)version\.js$/ }, (args) =>
            [versionFile, versionFile.replace(/\.ts$/, '.js')].includes(resolve(args.resolveDir, args.path)) ? { path: 'version', namespace: 'gridsweep-version' } : undefined,
          );
          build.onLoad({ filter: /.*/, namespace: 'gridsweep-version' }, () => ({ contents: `export const GRIDSWEEP_VERSION = ${JSON.stringify(GRIDSWEEP_VERSION)};`, loader: 'js' }));
        },
      },
    ],
    logLevel: 'silent',
  });
}

/** Puts the cell bundle at `dest`: the built one (dist/gridsweep-cell.mjs) when there is one, else bundled now. */
export async function placeCellBundle(dest: string): Promise<void> {
  const built = join(PACKAGE_ROOT, 'dist', CELL_BUNDLE_NAME);
  if (!RUNNING_FROM_SOURCES && existsSync(built)) {
    mkdirSync(dirname(dest), { recursive: true });
    copyFileSync(built, dest);
    return;
  }
  await buildCellBundle(dest);
}
