// The usage ledger as bff-en's other modules use it (README.md, "The usage ledger").
export { UsageLedger, type UsageLedgerConfig, type UsageLedgerStats } from './usage-ledger.js';
export { UsageChannel, UsageResult, type UsageRecord } from './usage-record.js';
