export * from './dataset-layout.js';
export { encodeDataset, type AsnEntry, type DatasetContent, type DatasetRecord, type RangeTable } from './dataset-writer.js';
export { decodeRecord, openDataset, type DatasetView } from './dataset-reader.js';
