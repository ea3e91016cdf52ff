// A JSON Schema (OpenAPI 3.1) as a tree a person reads: each member with its type in words
// (`string | null`, `array of IpInfo`), whether it is required, its description and its
// constraints. References are followed and named; a schema met again on the same branch is not
// expanded twice (no endless trees from recursive schemas).

import { isObject, refName, resolve, text, type Json } from './openapi-model.js';

export interface SchemaField {
  name: string;
  required: boolean;
  node: SchemaNode;
}

export interface SchemaNode {
  /** The type in words: `string | null`, `integer`, `IpAsn | null`, `array of IpInfo`, `IpInfo | BatchError`. */
  type: string;
  description: string;
  /** Enum values, ranges, formats, patterns, defaults, examples. */
  constraints: string[];
  /** An object's members (all of an `allOf` merged). */
  fields: SchemaField[];
  /** An array's items, when they have members of their own. */
  items: SchemaNode | undefined;
  /** The alternatives of a `oneOf`/`anyOf` that have members of their own. */
  variants: SchemaNode[];
}

const MAX_DEPTH = 8;

function quote(value: unknown): string {
  return value === null ? 'null' : typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
}

function constraintsOf(schema: Json): string[] {
  const out: string[] = [];
  const values = schema['enum'];
  if (Array.isArray(values)) out.push(`one of ${values.map(quote).join(', ')}`);
  if (schema['const'] !== undefined) out.push(`always ${quote(schema['const'])}`);
  const format = text(schema['format']);
  if (format) out.push(`format ${format}`);
  const min = schema['minimum'];
  const max = schema['maximum'];
  if (typeof min === 'number' && typeof max === 'number') out.push(`${min} to ${max}`);
  else if (typeof min === 'number') out.push(`at least ${min}`);
  else if (typeof max === 'number') out.push(`at most ${max}`);
  const minLength = schema['minLength'];
  const maxLength = schema['maxLength'];
  if (typeof minLength === 'number' && minLength > 0) out.push(`at least ${minLength} characters`);
  if (typeof maxLength === 'number') out.push(`at most ${maxLength} characters`);
  const minItems = schema['minItems'];
  const maxItems = schema['maxItems'];
  if (typeof minItems === 'number' && typeof maxItems === 'number') out.push(`${minItems} to ${maxItems} items`);
  else if (typeof maxItems === 'number') out.push(`at most ${maxItems} items`);
  const pattern = text(schema['pattern']);
  if (pattern) out.push(`pattern ${pattern}`);
  if (schema['default'] !== undefined) out.push(`default ${quote(schema['default'])}`);
  const examples = schema['examples'];
  if (Array.isArray(examples) && examples.length > 0) out.push(`e.g. ${examples.map(quote).join(', ')}`);
  return out;
}

function declaredTypes(schema: Json): string[] {
  const type = schema['type'];
  if (Array.isArray(type)) return type.map(text);
  if (typeof type === 'string') return [type];
  return [];
}

/** The members of an object schema and of every part of its `allOf`. */
function membersOf(doc: Json, schema: Json): { properties: [string, unknown][]; required: Set<string> } {
  const properties: [string, unknown][] = [];
  const required = new Set<string>();
  const parts = [schema, ...(Array.isArray(schema['allOf']) ? schema['allOf'].map((part) => resolve(doc, part)) : [])];
  for (const part of parts) {
    if (isObject(part['properties'])) properties.push(...Object.entries(part['properties']));
    if (Array.isArray(part['required'])) for (const name of part['required']) required.add(text(name));
  }
  // A later part (allOf's refinement) describes a member more precisely than the base did.
  const merged = new Map<string, unknown>();
  for (const [name, property] of properties) merged.set(name, property);
  return { properties: [...merged.entries()], required };
}

function build(doc: Json, raw: unknown, seen: readonly string[], depth: number): SchemaNode {
  const name = refName(raw);
  const schema = resolve(doc, raw);
  const node: SchemaNode = {
    type: '',
    description: text(schema['description']) || (isObject(raw) ? text(raw['description']) : ''),
    constraints: constraintsOf(schema),
    fields: [],
    items: undefined,
    variants: [],
  };
  const types = declaredTypes(schema);
  const nullable = types.includes('null');
  const again = name !== undefined && seen.includes(name);
  const path = name === undefined ? seen : [...seen, name];
  const expand = !again && depth < MAX_DEPTH;

  const alternatives = (
    Array.isArray(schema['oneOf']) ? schema['oneOf'] : Array.isArray(schema['anyOf']) ? schema['anyOf'] : []
  ) as unknown[];
  if (alternatives.length > 0) {
    const variants = expand ? alternatives.map((variant) => build(doc, variant, path, depth + 1)) : [];
    const words = alternatives.map((variant, i) => refName(variant) ?? variants[i]?.type ?? 'object');
    node.type = name ?? words.join(' | ');
    if (name !== undefined && expand) node.constraints.unshift(`one of ${words.join(', ')}`);
    node.variants = variants.filter((variant) => variant.fields.length > 0 || variant.items !== undefined);
    return node;
  }

  if (types.includes('array') || schema['items'] !== undefined) {
    const items = schema['items'];
    const inner = expand && items !== undefined ? build(doc, items, path, depth + 1) : undefined;
    const itemWord = refName(items) ?? inner?.type ?? 'any';
    node.type = `array of ${itemWord.includes(' ') ? `(${itemWord})` : itemWord}${nullable ? ' | null' : ''}`;
    if (inner && (inner.fields.length > 0 || inner.variants.length > 0)) node.items = inner;
    return node;
  }

  const { properties, required } = membersOf(doc, schema);
  const isObjectType = types.includes('object') || properties.length > 0 || isObject(schema['additionalProperties']);
  if (isObjectType) {
    const extra = schema['additionalProperties'];
    const mapOf = properties.length === 0 && isObject(extra) ? build(doc, extra, path, depth + 1).type : undefined;
    node.type = `${name ?? (mapOf ? `map of ${mapOf}` : 'object')}${nullable ? ' | null' : ''}`;
    if (expand)
      node.fields = properties.map(([field, property]) => ({
        name: field,
        required: required.has(field),
        node: build(doc, property, path, depth + 1),
      }));
    return node;
  }

  const words = types.filter((type) => type !== 'null');
  if (words.length === 0 && Array.isArray(schema['enum'])) words.push('string');
  if (words.length === 0 && schema['const'] !== undefined) words.push(typeof schema['const']);
  node.type = [...(words.length > 0 ? words : ['any']), ...(nullable ? ['null'] : [])].join(' | ');
  if (name !== undefined && !['string', 'integer', 'number', 'boolean'].includes(name)) node.type = `${name} (${node.type})`;
  return node;
}

/** The tree of a schema (a `$ref` or an inline schema) of `doc`. */
export function outlineSchema(doc: Json, schema: unknown): SchemaNode {
  return build(doc, schema, [], 0);
}
