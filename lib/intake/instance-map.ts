/**
 * A Map kept in a warm function instance (module scope), bounded: past `limit` entries the one
 * used least recently is dropped, so an instance serving many webhooks or sites never grows
 * without end. What is dropped is only what the instance remembered, never data.
 */
export class InstanceMap<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly limit: number) {}

  /** The value, marked as used just now. */
  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.limit) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  /** Drops entries, least recently used first, as long as `stale` holds for them. */
  dropOldestWhile(stale: (value: V) => boolean): void {
    for (const [key, value] of this.entries) {
      if (!stale(value)) return;
      this.entries.delete(key);
    }
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
