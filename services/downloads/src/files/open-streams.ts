/**
 * Streams open per dataset version in this process, and the versions being pruned. Pruning
 * takes a version only when no stream reads it, and from then on no new stream may open it, so
 * a download in progress never loses its file (within one process; see README "Pruning").
 */
export class OpenStreams {
  private readonly counts = new Map<string, number>();
  private readonly pruning = new Set<string>();

  /** Registers a stream on `version`; undefined when the version is being pruned. The release is idempotent. */
  open(version: string): (() => void) | undefined {
    if (this.pruning.has(version)) return undefined;
    this.counts.set(version, (this.counts.get(version) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.counts.get(version) ?? 1) - 1;
      if (left === 0) this.counts.delete(version);
      else this.counts.set(version, left);
    };
  }

  count(version: string): number {
    return this.counts.get(version) ?? 0;
  }

  /** Claims `version` for pruning when no stream reads it; false when one does. */
  beginPrune(version: string): boolean {
    if (this.count(version) > 0) return false;
    this.pruning.add(version);
    return true;
  }

  endPrune(version: string): void {
    this.pruning.delete(version);
  }
}
