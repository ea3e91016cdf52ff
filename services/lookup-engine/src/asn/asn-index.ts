import { ASN_ROW_WORDS, NONE, type DatasetView } from '@ipdata/dataset/format';

/**
 * What ASN searches need from one dataset, computed once: per ASN row its name and organisation
 * lower-cased into one text (so a search lower-cases only the query, not ~80,000 rows per call),
 * its country code upper-cased, and the rows of each organisation (lower-cased) for siblings.
 */
export interface AsnIndex {
  /** Number of rows in the dataset's ASN table (sorted by ASN). */
  readonly rows: number;
  /** `name + "\n" + organisation`, lower-cased; "" when both are missing. */
  readonly searchText: readonly string[];
  /** Upper-cased country code; "" when missing. */
  readonly countries: readonly string[];
  /** Lower-cased organisation → its rows in ASN order. Rows without an organisation are absent. */
  readonly byOrganisation: ReadonlyMap<string, readonly number[]>;
}

// Keyed by the dataset view, which a swap replaces: the next dataset builds its own index and the
// old one goes with its view. Built on first use so loading (and readiness) does not wait for it.
const indexes = new WeakMap<DatasetView, AsnIndex>();

/** The ASN index of a dataset, built on the first call for that dataset. */
export function asnIndexOf(view: DatasetView): AsnIndex {
  let index = indexes.get(view);
  if (index === undefined) {
    index = buildAsnIndex(view);
    indexes.set(view, index);
  }
  return index;
}

function buildAsnIndex(view: DatasetView): AsnIndex {
  const table = view.asnTable;
  const rows = table.length / ASN_ROW_WORDS;
  const text = (id: number) => (id === NONE ? '' : (view.strings[id] ?? ''));
  const searchText = new Array<string>(rows);
  const countries = new Array<string>(rows);
  const byOrganisation = new Map<string, number[]>();
  for (let row = 0; row < rows; row++) {
    const at = row * ASN_ROW_WORDS;
    const name = text(table[at + 1] as number);
    const organisation = text(table[at + 2] as number);
    searchText[row] = `${name}\n${organisation}`.toLowerCase();
    countries[row] = text(table[at + 3] as number).toUpperCase();
    if (organisation !== '') {
      const key = organisation.toLowerCase();
      const list = byOrganisation.get(key);
      if (list === undefined) byOrganisation.set(key, [row]);
      else list.push(row);
    }
  }
  return { rows, searchText, countries, byOrganisation };
}
