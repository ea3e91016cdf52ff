import { checkAddress } from '@ipdata/lookup-engine/client';
import { ReservedReason } from '@ipdata/proto/lookup/v1/lookup';

/** A target the worker may trace: one canonical address and its family (what the argv is built from). */
export interface ProbeTarget {
  readonly family: 4 | 6;
  /** Dotted quad or RFC 5952 IPv6, as the project's IP module prints it. */
  readonly address: string;
}

export type TargetCheck = { ok: true; target: ProbeTarget } | { ok: false; reason: 'invalid' | 'refused' };

/** Never a meaningful trace target, whatever the configuration says. */
const ALWAYS_REFUSED: ReadonlySet<ReservedReason> = new Set([
  ReservedReason.RESERVED_REASON_MULTICAST,
  ReservedReason.RESERVED_REASON_BROADCAST,
  ReservedReason.RESERVED_REASON_UNSPECIFIED_ADDRESS,
]);

/**
 * Re-validates a task's target (bff-cn validated it, but the worker runs a program with it and
 * trusts no producer): exactly one address, parsed by the project's IP module, with the lookup
 * engine's special-purpose table (IANA registries) deciding what is private, loopback or
 * reserved. Those are refused unless `allowPrivate` (tests, a lab site); multicast, broadcast and
 * the unspecified address always are. An IPv4-mapped IPv6 address is the IPv4 address it carries.
 */
export function checkTarget(text: string, allowPrivate: boolean): TargetCheck {
  const checked = checkAddress(text);
  if (checked === undefined) return { ok: false, reason: 'invalid' };
  const special = checked.reserved !== ReservedReason.RESERVED_REASON_UNSPECIFIED;
  if (special && (!allowPrivate || ALWAYS_REFUSED.has(checked.reserved))) return { ok: false, reason: 'refused' };
  return { ok: true, target: { family: checked.family, address: checked.text } };
}
