// Compiles every grammars/*.ne with nearleyc into src/formats/generated/*.ts (generated, never edited).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';

const require = createRequire(import.meta.url);
const nearleyc = require.resolve('nearley/bin/nearleyc.js');
const outDir = 'src/formats/generated';
mkdirSync(outDir, { recursive: true });
for (const name of readdirSync('grammars').filter((f) => f.endsWith('.ne'))) {
  const out = join(outDir, `${basename(name, '.ne')}.ts`);
  execFileSync(process.execPath, [nearleyc, join('grammars', name), '-o', out], { stdio: 'inherit' });
}
