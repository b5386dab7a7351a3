// `{name}` placeholders in sweep templates; `{{` and `}}` stand for literal braces.

export type TemplatePart = { readonly text: string } | { readonly name: string };

export class TemplateSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

export function parseTemplate(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let text = '';
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if (c === '{' && template[i + 1] === '{') {
      text += '{';
      i++;
    } else if (c === '}' && template[i + 1] === '}') {
      text += '}';
      i++;
    } else if (c === '{') {
      const end = template.indexOf('}', i);
      const name = end < 0 ? '' : template.slice(i + 1, end);
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
        throw new TemplateSyntaxError(
          `bad placeholder at character ${i + 1}: a "{" must start {name} (letters, digits, _) or be doubled as "{{"`,
          i,
        );
      }
      if (text) parts.push({ text });
      text = '';
      parts.push({ name });
      i = end;
    } else if (c === '}') {
      throw new TemplateSyntaxError(`lone "}" at character ${i + 1}: write "}}" for a literal brace`, i);
    } else {
      text += c;
    }
  }
  if (text) parts.push({ text });
  return parts;
}

export function placeholderNames(parts: readonly TemplatePart[]): string[] {
  return parts.flatMap((p) => ('name' in p ? [p.name] : []));
}

/** Fills a parsed template; every name must be in `values` (checked beforehand). */
export function fillTemplate(parts: readonly TemplatePart[], values: Readonly<Record<string, string>>): string {
  return parts.map((p) => ('name' in p ? values[p.name]! : p.text)).join('');
}
