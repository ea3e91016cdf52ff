/**
 * A value opened on first use, kept while it is used and dropped after `idleMs` without use, so
 * its memory goes back to the heap. The explain source readers hold about 200 MiB that most
 * engine replicas would otherwise carry for an occasional IP report. A failed open is not kept:
 * the next use tries again.
 */
export class IdleHeld<T> {
  private value: Promise<T> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly open: () => Promise<T>,
    private readonly idleMs: number,
    private readonly onDrop: () => void = () => {},
  ) {}

  get(): Promise<T> {
    if (this.value === undefined) {
      const opened = this.open();
      this.value = opened;
      opened.catch(() => {
        if (this.value === opened) this.value = undefined;
      });
    }
    this.touch();
    return this.value;
  }

  get held(): boolean {
    return this.value !== undefined;
  }

  /** Drops the value now (shutdown). */
  release(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.value === undefined) return;
    this.value = undefined;
    this.onDrop();
  }

  private touch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.release(), this.idleMs);
    // An idle engine exits on SIGTERM without waiting for this.
    this.timer.unref();
  }
}
