/**
 * A one-way gate, opened once: wait() resolves once it is open. Its promise is made only when someone waits, so an
 * object that keeps latches nobody awaits (an actor's start and stop, for a pool's 512 children) keeps no promise and
 * no resolving functions for them (issue 32).
 */
export class Latch {
  private opened = false;
  private promise: Promise<void> | undefined;
  private release: (() => void) | undefined;

  get isOpen(): boolean {
    return this.opened;
  }

  open(): void {
    if (this.opened) return;
    this.opened = true;
    const release = this.release;
    this.release = undefined;
    release?.();
  }

  wait(): Promise<void> {
    if (this.promise === undefined) this.promise = this.opened ? Promise.resolve() : new Promise<void>((r) => (this.release = r));
    return this.promise;
  }
}
