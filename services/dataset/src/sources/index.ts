// The source catalogue and readers, for other services that read the same installed sources
// (the lookup engine's ExplainAddress shows each source's own answer beside the merged one).
export { readAsnCsv } from './asn-csv-source.js';
export { openIpdb, type IpdbFile, type IpdbMeta } from './ipdb-source.js';
export { openMmdb, type MmdbFile } from './mmdb-source.js';
export { packagedSources, packageDir, type SourceDescription, type SourcePaths } from './source-catalogue.js';
export type { Partition } from '../ranges/partition.js';
