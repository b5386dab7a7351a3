// Build step: bundles the experiment cell program into dist/gridsweep-cell.mjs (src/experiment/cell-bundle.ts).
import { buildCellBundle, CELL_BUNDLE_NAME } from '../dist/src/experiment/cell-bundle.js';

await buildCellBundle(new URL(`../dist/${CELL_BUNDLE_NAME}`, import.meta.url).pathname);
