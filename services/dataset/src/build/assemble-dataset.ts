import { NONE, type DatasetContent, type RangeTable, type SourceInfo } from '../format/index.js';
import { mergePartitions } from '../ranges/merge-partitions.js';
import { HOSTING_RULE } from '../sources/privacy-rules.js';
import { buildAsnEntries } from './asn-table.js';
import { orderRecordsByCoverage } from './record-order.js';
import type { LoadedSources } from './load-sources.js';
import type { BuildReporter } from './progress.js';

export interface RuleCount {
  rule: string;
  ipv4Ranges: number;
  ipv6Ranges: number;
}

/** Merges the loaded sources into the dataset content and counts what each privacy rule flagged. */
export function assembleDataset(
  loaded: LoadedSources,
  identity: { datasetVersion: string; builtAt: Date; sources: SourceInfo[] },
  reporter: BuildReporter,
): { content: DatasetContent; ruleCounts: RuleCount[] } {
  const { recordTable } = loaded;
  const v4Step = reporter.step('merging IPv4 ranges');
  const ipv4 = mergePartitions(loaded.ipv4, recordTable.resolve, (done, total) => v4Step(done / total));
  const v6Step = reporter.step('merging IPv6 ranges');
  const ipv6 = mergePartitions(loaded.ipv6, recordTable.resolve, (done, total) => v6Step(done / total));
  const asns = buildAsnEntries(loaded.asnV4, loaded.asnV6, { ipv4, ipv6 }, recordTable, reporter.step('building the ASN list'));

  const rules = [HOSTING_RULE, ...loaded.rangeLists.map((rule) => rule.id)];
  const count = (table: RangeTable) => {
    const counts = new Map<string, number>(rules.map((rule) => [rule, 0]));
    for (const index of table.records) {
      if (index === NONE) continue;
      const applied = recordTable.records[index]?.fields.privacy_rule;
      if (!applied) continue;
      for (const rule of applied.split(',')) counts.set(rule, (counts.get(rule) ?? 0) + 1);
    }
    return counts;
  };
  const v4Counts = count(ipv4);
  const v6Counts = count(ipv6);
  const ruleCounts = rules.map((rule) => ({ rule, ipv4Ranges: v4Counts.get(rule) ?? 0, ipv6Ranges: v6Counts.get(rule) ?? 0 }));

  const orderStep = reporter.step('ordering records by coverage');
  orderStep(0);
  const ordered = orderRecordsByCoverage(recordTable.records, ipv4, ipv6);
  orderStep(1);
  return {
    content: { ...identity, records: ordered.records, ipv4: ordered.ipv4, ipv6: ordered.ipv6, asns },
    ruleCounts,
  };
}
