/**
 * Runs one job at a time; what is asked meanwhile waits, and only the newest of it runs next.
 * (An abort would not help: the server finishes a request the browser gave up on.)
 */
export class LatestOnly<T> {
  private busy = false;
  private next: { value: T } | null = null;
  constructor(private readonly job: (value: T) => Promise<void>) {}
  ask(value: T): void {
    if (this.busy) {
      this.next = { value };
      return;
    }
    this.busy = true;
    void this.job(value)
      .catch(() => undefined)
      .finally(() => {
        this.busy = false;
        const next = this.next;
        this.next = null;
        if (next) this.ask(next.value);
      });
  }
}
