/**
 * Where the completion callbacks a node attaches to what it places in its outlinks deliver (JobNode, CollectNode):
 * events wait here, not one actor message each, and the owner is woken once until it takes them, so the node
 * handles every completion that arrived meanwhile in one turn (a burst of removals costs one actor turn, not one
 * each). Events also wait across a swap of the incarnation that owns the inbox: the next one attaches and takes
 * what arrived meanwhile.
 */
export class Inbox<E> {
  private events: E[] = [];
  private owner: { readonly token: object; readonly wake: () => void } | undefined;
  private woken = false;

  push(event: E): void {
    this.events.push(event);
    this.wakeOwner();
  }

  /** `wake` is called (once until take) when events wait for the incarnation identified by `token`. */
  attach(token: object, wake: () => void): void {
    this.owner = { token, wake };
    this.woken = false;
    this.wakeOwner();
  }

  /** The incarnation handed over: events wait for the next one. */
  detach(): void {
    this.owner = undefined;
  }

  /** The waiting events, oldest first, for the attached incarnation; none for another. */
  take(token: object): E[] {
    if (this.owner?.token !== token) return [];
    this.woken = false;
    const events = this.events;
    this.events = [];
    return events;
  }

  private wakeOwner(): void {
    const owner = this.owner;
    if (owner === undefined || this.woken || this.events.length === 0) return;
    this.woken = true;
    owner.wake();
  }
}
