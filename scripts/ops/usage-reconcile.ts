/**
 * Rebuilds bff-en's Redis quota counters of the current month (monthly per account, daily per
 * account and per key) from stats' rollups, e.g. after Redis lost data: calls stats'
 * ReconcileQuotas as `operator` and prints the answer as one JSON line. Counters are only raised.
 *
 *   make usage-reconcile [ACCOUNT=<account id>]
 *   node --conditions=source --import tsx scripts/ops/usage-reconcile.ts [--account <id>]
 */
import { parseArgs } from 'node:util';
import { errorText } from '@ipdata/common';
import { printJson, statsOperatorClient } from './stats-client.js';

const { values } = parseArgs({ options: { account: { type: 'string', default: '' } } });
const client = statsOperatorClient();
const { stats, address } = client;
try {
  const answer = await stats.reconcileQuotas({ accountId: values.account ?? '' });
  printJson({
    stats: address,
    account: values.account || 'all',
    monthStart: answer.monthStart?.toISOString(),
    accounts: answer.accounts,
    countersRaised: answer.countersRaised,
  });
} catch (error) {
  printJson({ stats: address, error: errorText(error) });
  process.exitCode = 1;
} finally {
  client.close();
}
