/**
 * At most `limit()` tasks at once (read on every acquire, so a new setting applies to the next
 * one); the rest wait in arrival order. Scrapes and checks each hold one while their request runs.
 */
export class Slots {
  private running = 0;
  private readonly waiting: ((granted: boolean) => void)[] = [];

  constructor(private readonly limit: () => number) {}

  /** True once a slot is held; false when cancelled while waiting (the owner stops). */
  acquire(): Promise<boolean> {
    if (this.running < this.limit()) {
      this.running++;
      return Promise.resolve(true);
    }
    // release() hands its slot straight to the first waiter, so none can be taken in between.
    return new Promise<boolean>((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next(true);
    else this.running--;
  }

  /** Wakes every waiter with false: nothing more starts. */
  cancelWaiting(): void {
    this.waiting.splice(0).forEach((wake) => wake(false));
  }
}
