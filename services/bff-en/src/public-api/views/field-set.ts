/**
 * The shape of a view as data: its top-level fields in answer order, and for an object field the
 * names of its children. `fields=` selections are checked against it and CSV columns come from
 * it, not from an answer, so a null `asn` still gives its `asn.*` columns (empty cells).
 */
export interface FieldSpec {
  readonly name: string;
  /** Children of an object field (one level: no view nests deeper); absent for a value field. */
  readonly children?: readonly string[];
}

export type FieldSet = readonly FieldSpec[];

/** The dotted leaf paths of a field set in answer order (`asn.asn`, `proxy_data.is_vpn`, ...). */
export function leafPaths(fieldSet: FieldSet): string[] {
  const paths: string[] = [];
  for (const field of fieldSet) {
    if (field.children === undefined) paths.push(field.name);
    else for (const child of field.children) paths.push(`${field.name}.${child}`);
  }
  return paths;
}
