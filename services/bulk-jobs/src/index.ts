export { BulkJobs, type BulkJobsConfig, type BulkResult, type SubmitOptions, type WaitOptions } from './bulk-jobs.js';
export {
  FINISHED_STATES,
  type BulkJob,
  type BulkJobOwner,
  type BulkJobProgress,
  type BulkJobState,
  type InputFormat,
  type ResultFormat,
} from './jobs/bulk-job.js';
export type { BulkChunk, ChunkProcessor, ChunkResult } from './jobs/bulk-job.ports.js';
export { csvCells, detectInputFormat, InputLineReader } from './input/input-format.js';
