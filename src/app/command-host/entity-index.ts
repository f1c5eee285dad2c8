import type { Entity } from './entities';

/**
 * The palette's local index: everything fetched so far stays, so ranking is local and instant
 * while the API is asked (debounced) for more matches. Keyed by kind and id so a refetch replaces
 * a row instead of duplicating it.
 */
export class EntityIndex {
  private items = new Map<string, Entity>();
  private version = 0;
  add(items: Iterable<Entity>): void {
    for (const item of items) this.items.set(`${item.kind}:${item.id}`, item);
    this.version++;
  }
  all(): Entity[] {
    return [...this.items.values()];
  }
  get size(): number {
    return this.items.size;
  }
  get revision(): number {
    return this.version;
  }
}
