// Where a schema would let an object through with a field it does not declare: every object schema inside it that
// is not strict (z.object strips unknown keys, z.looseObject keeps them; only z.strictObject refuses them), named
// by its path. A result schema must have none, or the contract test could not tell an extra field from a declared one.
import type { z } from 'zod';

type Def = z.core.$ZodTypeDef & Record<string, unknown>;

function defOf(schema: unknown): Def {
  return (schema as z.core.$ZodType)._zod.def as Def;
}

export function notStrictObjects(schema: z.ZodType, path = 'result', seen = new Set<unknown>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = defOf(schema);
  const inner = (child: unknown, at: string): string[] => (child ? notStrictObjects(child as z.ZodType, at, seen) : []);
  switch (def.type) {
    case 'object': {
      const catchall = def.catchall as z.core.$ZodType | undefined;
      const strict = catchall !== undefined && defOf(catchall).type === 'never';
      const fields = Object.entries(def.shape as Record<string, unknown>).flatMap(([key, child]) => inner(child, `${path}.${key}`));
      return strict ? fields : [path, ...fields];
    }
    case 'array':
      return inner(def.element, `${path}[]`);
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
    case 'nonoptional':
    case 'catch':
      return inner(def.innerType, path);
    case 'union':
      return (def.options as unknown[]).flatMap((option, i) => inner(option, `${path}|${i}`));
    case 'intersection':
      return [...inner(def.left, path), ...inner(def.right, path)];
    case 'record':
      return inner(def.valueType, `${path}{}`);
    case 'tuple':
      return [...(def.items as unknown[]).flatMap((item, i) => inner(item, `${path}[${i}]`)), ...inner(def.rest, `${path}[…]`)];
    case 'lazy':
      return inner((def.getter as () => unknown)(), path);
    case 'pipe':
      return [...inner(def.in, path), ...inner(def.out, path)];
    default:
      return [];
  }
}
