/** The event emitter every fake Electron object is built on, and Electron's cancellable event. */
type Listener = (...args: unknown[]) => unknown

export class FakeEmitter {
  readonly listeners = new Map<string, Listener[]>()
  on(name: string, fn: Listener): this {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), fn])
    return this
  }
  once(name: string, fn: Listener): this {
    const wrapped: Listener = (...args) => {
      this.off(name, wrapped)
      return fn(...args)
    }
    return this.on(name, wrapped)
  }
  off(name: string, fn: Listener): this {
    this.listeners.set(
      name,
      (this.listeners.get(name) ?? []).filter((l) => l !== fn),
    )
    return this
  }
  removeListener(name: string, fn: Listener): this {
    return this.off(name, fn)
  }
  emit(name: string, ...args: unknown[]): void {
    for (const fn of [...(this.listeners.get(name) ?? [])]) fn(...args)
  }
  count(name: string): number {
    return this.listeners.get(name)?.length ?? 0
  }
}

/** A cancellable event like Electron's: preventDefault() sets defaultPrevented. */
export function fakeEvent<T extends object>(
  fields: T,
): T & { defaultPrevented: boolean; preventDefault(): void } {
  return {
    ...fields,
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true
    },
  }
}
