// Field lists for help texts and the README, rendered from a JSON Schema's own "description", "default",
// "required" and bounds, so that a file format is documented in one place (the schema the files are
// checked against). Nested objects are listed with dotted names (clusters[].hosts[].count); fields whose
// value takes several forms (oneOf) are listed once, by their description.

type Schema = Record<string, unknown>;

function rangeOf(s: Schema): string {
  const t = s['type'];
  const kind = t === 'integer' ? 'whole number' : t === 'number' ? 'number' : t === 'string' ? 'string' : t === 'boolean' ? 'true or false' : undefined;
  if (kind === undefined) return '';
  const lo = s['minimum'] !== undefined ? `[${String(s['minimum'])}` : s['exclusiveMinimum'] !== undefined ? `(${String(s['exclusiveMinimum'])}` : undefined;
  const hi = s['maximum'] !== undefined ? `${String(s['maximum'])}]` : s['exclusiveMaximum'] !== undefined ? `${String(s['exclusiveMaximum'])})` : undefined;
  if (lo !== undefined && hi !== undefined) return `${kind} in ${lo}, ${hi}`;
  if (lo !== undefined) return `${kind} ${lo.startsWith('[') ? '>=' : '>'} ${lo.slice(1)}`;
  if (hi !== undefined) return `${kind} ${hi.endsWith(']') ? '<=' : '<'} ${hi.slice(0, -1)}`;
  return kind;
}

/** One line per field: `name  (required | default D)  range — description`. */
export function schemaFieldLines(schema: object, prefix = ''): string[] {
  const s = schema as Schema;
  const props = (s['properties'] as Record<string, Schema> | undefined) ?? {};
  const required = new Set((s['required'] as string[] | undefined) ?? []);
  const lines: string[] = [];
  for (const [name, p] of Object.entries(props)) {
    if (name === '$schema') continue;
    const full = `${prefix}${name}`;
    const status = required.has(name) ? 'required' : p['default'] !== undefined ? `default ${JSON.stringify(p['default'])}` : 'optional';
    const range = rangeOf(p);
    lines.push(`${full} (${status}${range ? `; ${range}` : ''}): ${String(p['description'] ?? '')}`);
    if (p['type'] === 'object' && p['properties']) lines.push(...schemaFieldLines(p, `${full}.`));
    const items = p['items'] as Schema | undefined;
    if (p['type'] === 'array' && items?.['type'] === 'object' && items['properties']) lines.push(...schemaFieldLines(items, `${full}[].`));
  }
  return lines;
}
