// The Standard Workload Format (Parallel Workloads Archive): one job per line, 18 whitespace-separated
// numeric fields, -1 where a value is unknown, and `;` comment lines (the header: `; MaxProcs: 480`).

export const SWF_FIELD_COUNT = 18;

/** Field names in file order (field n is SWF_FIELDS[n - 1]); used in error messages and by the writer. */
export const SWF_FIELDS = [
  'job number',
  'submit time',
  'wait time',
  'run time',
  'allocated processors',
  'average CPU time',
  'used memory',
  'requested processors',
  'requested time',
  'requested memory',
  'status',
  'user id',
  'group id',
  'executable number',
  'queue number',
  'partition number',
  'preceding job number',
  'think time',
] as const;

/** Zero-based indexes of the fields the simulator reads. */
export const F = {
  job: 0,
  submit: 1,
  wait: 2,
  run: 3,
  allocatedProcs: 4,
  requestedProcs: 7,
  requestedTime: 8,
  status: 10,
  user: 11,
} as const;

/** SWF status codes the writer uses. */
export const SWF_STATUS = { failed: 0, completed: 1 } as const;

/** One `; Key: value` header line, with any continuation lines joined to its value by newlines. */
export interface SwfHeaderField {
  readonly key: string;
  readonly value: string;
}

/** The header: every field in file order (repeated keys kept), and the numbers the simulator reads. */
export interface SwfHeader {
  maxNodes?: number;
  maxProcs?: number;
  maxJobs?: number;
  unixStartTime?: number;
  maxRuntime?: number;
  readonly fields: SwfHeaderField[];
}

/** The first value given for `key` (case-insensitive), or undefined. */
export function headerValue(header: SwfHeader, key: string): string | undefined {
  const k = key.toLowerCase();
  return header.fields.find((f) => f.key.toLowerCase() === k)?.value;
}

/** Every value given for `key` (case-insensitive), in file order. */
export function headerValues(header: SwfHeader, key: string): string[] {
  const k = key.toLowerCase();
  return header.fields.filter((f) => f.key.toLowerCase() === k).map((f) => f.value);
}
