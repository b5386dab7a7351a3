// Gathers items for a moment and hands them over together: `send` runs once per batch (after `waitMs`
// from a batch's first item, or at once when it holds `max`), and each add() settles with its batch. A
// batch still gathering does not keep the process alive: what it holds must be safe to lose at exit.
export class Batcher<T> {
  private items: T[] = [];
  private waiting: { resolve: () => void; reject: (err: unknown) => void }[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly waitMs: number,
    private readonly max: number,
    private readonly send: (items: T[]) => Promise<void>,
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.items.push(item);
      this.waiting.push({ resolve, reject });
      if (this.items.length >= this.max) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.waitMs).unref();
    });
  }

  /** Sends what is gathered now. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const items = this.items;
    const waiting = this.waiting;
    this.items = [];
    this.waiting = [];
    if (items.length === 0) return;
    this.send(items).then(
      () => waiting.forEach((w) => w.resolve()),
      (err: unknown) => waiting.forEach((w) => w.reject(err)),
    );
  }
}
