import { z } from 'zod';

/** Fields of a route, read from its zod schema (the fuzzer sets bad values one field at a time). */

export type Json = Record<string, unknown>;
type Field = { path: (string | number)[]; schema: Json };

export const toJson = (schema: unknown): Json | null => {
  if (!schema || typeof schema !== 'object' || !('_zod' in schema)) return null;
  try {
    return z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any', cycles: 'ref' }) as Json;
  } catch {
    return null;
  }
};

export const resolve = (s: Json, root: Json): Json => {
  const ref = s.$ref;
  if (typeof ref === 'string') {
    const name = ref.split('/').pop() ?? '';
    const defs = (root.$defs ?? root.definitions ?? {}) as Record<string, Json>;
    return defs[name] ?? {};
  }
  const alt = (s.anyOf ?? s.oneOf ?? s.allOf) as Json[] | undefined;
  if (alt && !s.type && !s.properties) {
    const nonNull = alt.filter((a) => a.type !== 'null');
    if (s.allOf) return Object.assign({}, ...alt.map((a) => resolve(a, root)));
    return resolve(nonNull[0] ?? alt[0], root);
  }
  return s;
};

/** A valid-looking value: ids point nowhere (999999), so write routes find nothing to change. */
export const sampleOf = (raw: Json, root: Json, depth = 0): unknown => {
  const s = resolve(raw, root);
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if ('default' in s && s.default !== undefined) return s.default;
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'integer':
    case 'number': {
      const min = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : 0;
      const max = typeof s.maximum === 'number' ? s.maximum : Number.MAX_SAFE_INTEGER;
      return max >= 999_999 ? 999_999 : Math.max(min, 0);
    }
    case 'string':
      return 'a'.repeat(Math.max(1, typeof s.minLength === 'number' ? s.minLength : 1));
    case 'boolean':
      return false;
    case 'array': {
      const minItems = typeof s.minItems === 'number' ? s.minItems : 0;
      if (minItems === 0 || depth > 4) return [];
      return Array.from({ length: minItems }, () => sampleOf((s.items as Json) ?? {}, root, depth + 1));
    }
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, Json>;
      const required = (s.required ?? []) as string[];
      return Object.fromEntries(required.filter((k) => props[k]).map((k) => [k, sampleOf(props[k], root, depth + 1)]));
    }
    default:
      return '1';
  }
};

/** Every field of an object schema, and the fields of the first element of arrays of objects. */
export const fieldsOf = (raw: Json, root: Json, prefix: (string | number)[] = [], depth = 0): Field[] => {
  const s = resolve(raw, root);
  const props = (s.properties ?? {}) as Record<string, Json>;
  const out: Field[] = [];
  for (const [key, p] of Object.entries(props)) {
    const path = [...prefix, key];
    out.push({ path, schema: p });
    const r = resolve(p, root);
    if (depth < 2 && r.type === 'array') {
      const item = resolve((r.items as Json) ?? {}, root);
      if (item.properties) out.push(...fieldsOf(item, root, [...path, 0], depth + 1));
    }
    if (depth < 2 && r.properties) out.push(...fieldsOf(r, root, path, depth + 1));
  }
  return out;
};

export const setAt = (target: unknown, path: (string | number)[], value: unknown, root: Json, schema: Json): unknown => {
  const copy = structuredClone(target) as Json;
  let node: Json = copy;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i];
    const next = path[i + 1];
    if (node[key] === undefined || node[key] === null || typeof node[key] !== 'object') {
      node[key] = typeof next === 'number' ? [] : {};
    }
    if (typeof next === 'number' && (node[key] as unknown[]).length === 0) {
      // an array of objects: start from a valid-looking element
      const owner = fieldsOf(schema, root).find((f) => f.path.join('.') === path.slice(0, i + 1).join('.'));
      const item = owner ? resolve((resolve(owner.schema, root).items as Json) ?? {}, root) : {};
      (node[key] as unknown[]).push(sampleOf(item, root));
    }
    node = node[key] as Json;
  }
  node[path[path.length - 1]] = value;
  return copy;
};
