import type { FaceAAccounts } from '../accounts/accounts.ports.js';
import type { CardTools } from '../card-tools/index.js';
import type { FaceACall } from '../face-a/face-a-call.js';
import type { FaceALookups } from '../lookups/face-a-lookups.js';
import { accountCalls } from './account.calls.js';
import { cardCalls } from './card.calls.js';
import { lookupCalls } from './lookup.calls.js';

export interface FaceACallsDeps {
  lookups: FaceALookups;
  accounts: FaceAAccounts;
  cards: CardTools;
}

/** The one call table of face A (openapi/face-a.yaml documents each; the contract test compares both). */
export function faceACalls(deps: FaceACallsDeps): FaceACall[] {
  return [...lookupCalls(deps.lookups), ...cardCalls(deps.cards), ...accountCalls(deps.accounts)];
}

/**
 * The table without dependencies, for the contract test and docs: building a call only captures
 * its dependencies, so none are needed to list them.
 */
export const FACE_A_CALLS: readonly FaceACall[] = faceACalls({} as FaceACallsDeps);
