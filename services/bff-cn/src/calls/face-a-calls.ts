import type { FaceAAccounts } from '../accounts/accounts.ports.js';
import type { FaceAAsns } from '../asn/face-a-asns.js';
import type { BatchService } from '../batch/batch.service.js';
import type { CardTools } from '../card-tools/index.js';
import { unreadCounter } from '../content/unread.js';
import type { FaceACall } from '../face-a/face-a-call.js';
import type { FaceALookups } from '../lookups/face-a-lookups.js';
import type { TracerouteService } from '../traceroute/traceroute.service.js';
import { accountCalls } from './account.calls.js';
import { asnCalls } from './asn.calls.js';
import { batchCalls } from './batch.calls.js';
import { domainCalls, type DomainCallsDeps } from './domain.calls.js';
import { cardCalls } from './card.calls.js';
import { contentCalls, type ContentCallsDeps } from './content.calls.js';
import { lookupCalls } from './lookup.calls.js';
import { visitCalls, type VisitCallsDeps } from './visit.calls.js';
import { vipCalls, type VipCallsDeps } from './vip.calls.js';
import { statisticsCalls, type StatisticsCallsDeps } from './statistics.calls.js';
import { tracerouteCalls } from './traceroute.calls.js';
import { reportCalls, type ReportCallsDeps } from './report.calls.js';

// Content and visit calls (H9) take their dependencies flat from here.
export interface FaceACallsDeps extends ContentCallsDeps, VisitCallsDeps {
  lookups: FaceALookups;
  accounts: FaceAAccounts;
  cards: CardTools;
  statistics: StatisticsCallsDeps;
  traceroute: TracerouteService;
  vip: VipCallsDeps;
  report: ReportCallsDeps;
  batch: BatchService;
  domains: DomainCallsDeps;
  asns: FaceAAsns;
}

/** The one call table of face A (openapi/face-a.yaml documents each; the contract test compares both). */
export function faceACalls(deps: FaceACallsDeps): FaceACall[] {
  return [
    ...lookupCalls(deps.lookups),
    ...cardCalls(deps.cards),
    ...accountCalls({
      accounts: deps.accounts,
      unread: unreadCounter(deps.content, deps.logger),
      content: deps.content,
      logger: deps.logger,
    }),
    ...vipCalls(deps.vip),
    ...contentCalls(deps),
    ...visitCalls(deps),
    ...statisticsCalls(deps.statistics),
    ...tracerouteCalls(deps.traceroute),
    ...reportCalls(deps.report),
    ...batchCalls(deps.batch),
    ...domainCalls(deps.domains),
    ...asnCalls(deps.asns),
  ];
}

/**
 * The table without dependencies, for the contract test and docs: building a call only captures
 * its dependencies, so none are needed to list them.
 */
export const FACE_A_CALLS: readonly FaceACall[] = faceACalls({} as FaceACallsDeps);
