// `npm run docs`: rewrites the generated sections of README.md from the code.
import { readFileSync } from 'node:fs';
import { applySections, generatedSections } from '../src/cli/readme-sections.js';
import { writeFileAtomicSync } from '../src/util/atomic-write.js';

const readme = readFileSync('README.md', 'utf8');
writeFileAtomicSync('README.md', applySections(readme, await generatedSections()));
