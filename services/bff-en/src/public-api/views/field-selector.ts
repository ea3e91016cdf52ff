import { type ApiError, badRequest } from '../api-error.js';
import { type FieldSet, leafPaths } from './field-set.js';
import { IP_INFO_FIELDS } from './ip-info.view.js';

/**
 * `fields=` for every answer of the public API: either a list of dot-paths to keep
 * (`fields=country_code,asn.asn`) or a list of `-`paths to drop (`fields=-time_zone,-asn.domain`),
 * never both. A kept object keeps only its selected children (`{"asn": {"asn": 13335}}`); a
 * selection of a null object answers null. The answer keeps the view's field order, whatever the
 * order of the parameter, so CSV columns and JSON keys are stable.
 */
export interface FieldSelector {
  /** True when nothing is selected or excluded: apply() returns the view itself. */
  readonly all: boolean;
  /** The dotted leaf paths the projected answer has, in answer order (the CSV columns). */
  readonly columns: readonly string[];
  apply(view: object): Record<string, unknown>;
}

/** One kept top-level field; `children` null keeps the field whole. */
interface KeptField {
  readonly name: string;
  readonly children: readonly string[] | null;
}

const MAX_PARAM_LENGTH = 2000;
/** Distinct `fields=` values kept compiled per field set; the hot path sees a handful. */
const CACHE_SIZE = 128;

class Projection implements FieldSelector {
  constructor(
    readonly all: boolean,
    readonly columns: readonly string[],
    private readonly kept: readonly KeptField[],
  ) {}

  apply(view: object): Record<string, unknown> {
    const source = view as Record<string, unknown>;
    if (this.all) return source;
    const out: Record<string, unknown> = {};
    for (const field of this.kept) {
      const value = source[field.name] ?? null;
      if (field.children === null || value === null || typeof value !== 'object') {
        out[field.name] = value;
        continue;
      }
      const nested = value as Record<string, unknown>;
      const part: Record<string, unknown> = {};
      for (const child of field.children) part[child] = nested[child] ?? null;
      out[field.name] = part;
    }
    return out;
  }
}

const caches = new WeakMap<FieldSet, Map<string, FieldSelector>>();
const allSelectors = new WeakMap<FieldSet, FieldSelector>();

/**
 * The selector for a `fields` parameter value (null, undefined or blank: everything). Compiled
 * once per distinct value and field set, then served from a small LRU cache.
 * Throws ApiError 400 `invalid_field` for an unknown path, a mix of paths and -exclusions, or a
 * parameter longer than 2,000 characters.
 */
export function compileFields(param: string | null | undefined, fieldSet: FieldSet = IP_INFO_FIELDS): FieldSelector {
  if (param === null || param === undefined || param === '') return everything(fieldSet);
  let cache = caches.get(fieldSet);
  if (cache === undefined) {
    cache = new Map();
    caches.set(fieldSet, cache);
  }
  const cached = cache.get(param);
  if (cached !== undefined) {
    // Re-inserting moves the entry to the end: Map keeps insertion order, the oldest is first.
    cache.delete(param);
    cache.set(param, cached);
    return cached;
  }
  const selector = compile(param, fieldSet);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(param, selector);
  return selector;
}

function everything(fieldSet: FieldSet): FieldSelector {
  let selector = allSelectors.get(fieldSet);
  if (selector === undefined) {
    selector = new Projection(
      true,
      leafPaths(fieldSet),
      fieldSet.map((field) => ({ name: field.name, children: null })),
    );
    allSelectors.set(fieldSet, selector);
  }
  return selector;
}

function compile(param: string, fieldSet: FieldSet): FieldSelector {
  if (param.length > MAX_PARAM_LENGTH) {
    throw badRequest(
      'invalid_field',
      `the fields parameter is longer than ${MAX_PARAM_LENGTH} characters`,
      resolutionFor(fieldSet),
    );
  }
  const items = param
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  if (items.length === 0) return everything(fieldSet);
  const excluding = items[0]?.startsWith('-') === true;
  // Per top-level field: null = the whole field, else the children named.
  const named = new Map<string, Set<string> | null>();
  for (const item of items) {
    if (item.startsWith('-') !== excluding) {
      throw badRequest(
        'invalid_field',
        'the fields parameter mixes fields to keep and -fields to drop',
        'Either list the fields to keep (fields=country_code,asn.asn) or the ones to drop (fields=-time_zone,-asn.domain), not both.',
      );
    }
    const path = excluding ? item.slice(1) : item;
    const [name, child] = splitPath(path, fieldSet);
    if (child === null) named.set(name, null);
    else {
      const children = named.get(name);
      if (children === null) continue;
      if (children === undefined) named.set(name, new Set([child]));
      else children.add(child);
    }
  }
  const kept: KeptField[] = [];
  for (const field of fieldSet) {
    const children = named.get(field.name);
    if (excluding) {
      if (children === null) continue;
      if (children === undefined || field.children === undefined) kept.push({ name: field.name, children: null });
      else {
        const left = field.children.filter((child) => !children.has(child));
        if (left.length > 0) kept.push({ name: field.name, children: left });
      }
    } else if (children === null) kept.push({ name: field.name, children: null });
    else if (children !== undefined) {
      // In the view's order, not the parameter's.
      kept.push({ name: field.name, children: (field.children ?? []).filter((child) => children.has(child)) });
    }
  }
  const columns: string[] = [];
  for (const field of kept) {
    const children = field.children ?? fieldSet.find((spec) => spec.name === field.name)?.children;
    if (children === undefined) columns.push(field.name);
    else for (const child of children) columns.push(`${field.name}.${child}`);
  }
  return new Projection(false, columns, kept);
}

/** [top-level name, child or null] of a known path; ApiError 400 `invalid_field` otherwise. */
function splitPath(path: string, fieldSet: FieldSet): [string, string | null] {
  const dot = path.indexOf('.');
  const name = dot < 0 ? path : path.slice(0, dot);
  const child = dot < 0 ? null : path.slice(dot + 1);
  const field = fieldSet.find((spec) => spec.name === name);
  if (field !== undefined && (child === null || field.children?.includes(child) === true)) return [name, child];
  throw unknownField(path, fieldSet);
}

function unknownField(path: string, fieldSet: FieldSet): ApiError {
  // Echo a bounded part of the input only.
  const shown = path.length > 64 ? `${path.slice(0, 64)}…` : path;
  return badRequest('invalid_field', `unknown field "${shown}"`, resolutionFor(fieldSet));
}

function resolutionFor(fieldSet: FieldSet): string {
  const names = fieldSet.map((field) =>
    field.children === undefined
      ? field.name
      : `${field.name} (${field.children.map((child) => `${field.name}.${child}`).join(', ')})`,
  );
  return `Use field names of the answer, with a dot for nested ones: ${names.join(', ')}. The OpenAPI document (GET /v1/openapi.json) lists them with their types.`;
}

/**
 * One field of an answer as text, for `GET /v1/ip/{ip}/{field}` (text/plain): strings as they
 * are, numbers and booleans as in JSON, objects and lists as JSON text, and null as the empty
 * string: the route answers 200 with an empty body, so `$(curl .../city_name)` is empty for an
 * address without a city instead of failing (no field is ever an empty string otherwise: a field
 * without a source is null). Unknown path → ApiError 400 `invalid_field`.
 */
export function fieldValueText(view: object, path: string, fieldSet: FieldSet = IP_INFO_FIELDS): string {
  const [name, child] = splitPath(path, fieldSet);
  const top = (view as Record<string, unknown>)[name] ?? null;
  const value = child === null || top === null ? top : ((top as Record<string, unknown>)[child] ?? null);
  if (value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}
