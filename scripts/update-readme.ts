// `npm run docs`: rewrites the generated sections of README.md and docs/cli.md from the code.
import { readFileSync } from 'node:fs';
import { applySections, generatedDocs } from '../src/cli/readme-sections.js';
import { writeFileAtomicSync } from '../src/util/atomic-write.js';

for (const { path, sections } of await generatedDocs()) {
  writeFileAtomicSync(path, applySections(readFileSync(path, 'utf8'), sections, path));
}
