// The description formats: parsers (grammars/*.ne through nearley), validation and writers.
export { parseApplication, writeApplication } from './application.js';
export { parseGridEvents, writeGridEvents } from './grid-events.js';
export { parseHostBehavior, parseLinkBehavior, writeHostBehavior, writeLinkBehavior } from './behavior.js';
export { behaviorPath, loadApplication, loadGrid, saveApplication, writeGrid } from './load.js';
export { checkCompatibility } from './compatibility.js';
export { detectDescriptionKind, type DescriptionKind } from './detect.js';
