/**
 * Changes that one module makes and another must hear of, without the two importing each other
 * (issue 40). The services that change locations and users raise them after their commit; auth
 * listens and ends or refreshes the cached sessions they affect, on every instance.
 */
export type DomainEvent =
  /** A location was added, moved or removed: every caller's scope may have changed. */
  | { type: 'locations.changed' }
  /** `ended`: the user's sessions were revoked; `rights`: roles, locations or login; `profile`: the rest. */
  | { type: 'user.changed'; userId: number; effect: 'ended' | 'rights' | 'profile' };

type Listener = (event: DomainEvent) => void;

export class DomainEvents {
  private readonly listeners = new Set<Listener>();

  /** Returns the way to stop listening. */
  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  raise(event: DomainEvent) {
    for (const listener of this.listeners) listener(event);
  }
}
