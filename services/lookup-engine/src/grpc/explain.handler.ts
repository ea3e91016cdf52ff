import { systemClock, unary, type Clock, type Logger } from '@ipdata/common';
import type { ExplainAddressRequest, ExplainAddressResponse } from '@ipdata/proto/lookup/v1/lookup';
import type { DatasetStore } from '../dataset/dataset-store.js';
import { AddressExplainer, type SourceOpener } from '../explain/address-explainer.js';
import { openExplainedSources } from '../explain/source-readers.js';

/** gRPC handler of ExplainAddress; the source readers open lazily on its first call. */
export function explainHandlers(
  store: DatasetStore,
  logger: Logger,
  clock: Clock = systemClock,
  open: SourceOpener = openExplainedSources,
) {
  const explainer = new AddressExplainer(open, logger);
  return {
    explainAddress: unary<ExplainAddressRequest, ExplainAddressResponse>(logger, 'ExplainAddress', async ({ ip }) =>
      // One dataset reference for the whole answer, even if a swap happens meanwhile.
      explainer.explain(store.current(), ip.trim(), clock.now().getTime()),
    ),
  };
}
