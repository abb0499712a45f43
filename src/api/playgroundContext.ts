/**
 * The context the playground evaluates, and its combinations counted and cut the way the server makes them: every
 * string field (a property too) is split at its commas, and the server evaluates every combination of one value of
 * each field. So the client can tell how many combinations a context makes before sending it, and cut a context
 * into contexts of fewer combinations that together make the same ones (docs/unleash-api-notes.md, "Playground").
 */

/** What the playground takes as context. Each string may hold several values, comma-separated. */
export interface PlaygroundContext {
  appName: string;
  userId?: string;
  sessionId?: string;
  remoteAddress?: string;
  /** An RFC 3339 date and time (the server refuses anything else); the server's clock when absent. */
  currentTime?: string;
  environment?: string;
  /** Custom context fields (`tenantId`, `country`, …); the server evaluates them beside the others. */
  properties?: Readonly<Record<string, string>>;
}

/** One field as the server splits it: its name, where it sits in the context sent, and its values. */
interface FieldValues {
  name: string;
  inProperties: boolean;
  values: readonly string[];
}

/**
 * The fields the server combines, as it reads them (unleash-server's `cleanContext` and `splitByComma`): fields other
 * than strings left out, the properties' fields beside the others (a later field of the same name wins), `appName` last.
 */
function fieldsOf(context: PlaygroundContext): FieldValues[] {
  const fields = new Map<string, FieldValues>();
  const add = (name: string, value: unknown, inProperties: boolean) => {
    if (typeof value === 'string') fields.set(name, { name, inProperties, values: value.split(',') });
  };
  for (const [name, value] of Object.entries(context)) {
    if (name === 'appName') continue;
    if (name === 'properties' && typeof value === 'object' && value !== null) {
      for (const [property, text] of Object.entries(value as Record<string, unknown>)) add(property, text, true);
    } else add(name, value, false);
  }
  add('appName', context.appName, false);
  return [...fields.values()];
}

/** How many combinations the server makes of the context. */
export function combinationCount(context: PlaygroundContext): number {
  return fieldsOf(context).reduce((product, field) => product * field.values.length, 1);
}

/**
 * Contexts of at most `max` combinations each (at least 1) that together make every combination of `context`, once:
 * the field of most values is cut into runs of values, or into single values when the other fields alone make more
 * than `max`, and so on.
 */
export function contextParts(context: PlaygroundContext, max: number): PlaygroundContext[] {
  const fields = fieldsOf(context);
  return cut(fields, Math.max(1, Math.floor(max))).map((part) => withValues(context, fields, part));
}

function cut(fields: readonly FieldValues[], max: number): FieldValues[][] {
  const total = fields.reduce((product, field) => product * field.values.length, 1);
  if (total <= max) return [[...fields]];
  let widest = 0;
  fields.forEach((field, index) => {
    if (field.values.length > (fields[widest] as FieldValues).values.length) widest = index;
  });
  const field = fields[widest] as FieldValues;
  const others = total / field.values.length;
  const replaced = (values: readonly string[]) => fields.map((candidate, index) => (index === widest ? { ...field, values } : candidate));
  if (others <= max) {
    const run = Math.floor(max / others);
    const parts: FieldValues[][] = [];
    for (let at = 0; at < field.values.length; at += run) parts.push(replaced(field.values.slice(at, at + run)));
    return parts;
  }
  return field.values.flatMap((value) => cut(replaced([value]), max));
}

/** The context with the fields of `part` holding their values of the part (the others as they were). */
function withValues(context: PlaygroundContext, original: readonly FieldValues[], part: readonly FieldValues[]): PlaygroundContext {
  const next: PlaygroundContext = { ...context, ...(context.properties ? { properties: { ...context.properties } } : {}) };
  part.forEach((field, index) => {
    if (field.values === original[index]?.values) return;
    const text = field.values.join(',');
    if (field.inProperties) (next.properties as Record<string, string>)[field.name] = text;
    else (next as unknown as Record<string, string>)[field.name] = text;
  });
  return next;
}
