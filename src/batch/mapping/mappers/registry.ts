// The task mappers, by name: `gridsweep map --mapper`, its help and the README read this list.
// Adding a mapper is one file in this folder and one line below.
import type { TaskMapper } from '../mapper.js';
import { bisection } from './bisection.js';
import { columnMajor } from './column-major.js';
import { corner } from './corner.js';
import { rowMajor } from './row-major.js';

export type { MappingJob, TaskMapper } from '../mapper.js';

const MAPPERS: readonly TaskMapper[] = [rowMajor, columnMajor, corner, bisection];

export function listMappers(): readonly TaskMapper[] {
  return MAPPERS;
}

/** The mapper named `name`, or undefined. */
export function findMapper(name: string): TaskMapper | undefined {
  return MAPPERS.find((m) => m.name === name);
}
