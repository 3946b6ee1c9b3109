/**
 * A stand-in for a value a `beforeAll` hook creates, forwarding to it once it exists, so a describe can
 * capture it up front and its tests and helpers use it as the value itself. Every operation reaches
 * the value (so `vi.spyOn(handle, 'method')` spies on the value's own method); `this` in a method
 * called through the handle is the handle, so a class with #private fields does not fit.
 */
export function handle<T extends object>(current: () => T | undefined, what: string): T {
  const value = (): T => {
    const v = current();
    if (!v) throw new Error(`${what} is used before beforeAll created it`);
    return v;
  };
  return new Proxy({} as T, {
    get: (_t, key) => Reflect.get(value(), key),
    set: (_t, key, v) => Reflect.set(value(), key, v),
    has: (_t, key) => Reflect.has(value(), key),
    ownKeys: () => Reflect.ownKeys(value()),
    getOwnPropertyDescriptor: (_t, key) => Reflect.getOwnPropertyDescriptor(value(), key),
    defineProperty: (_t, key, descriptor) => Reflect.defineProperty(value(), key, descriptor),
    deleteProperty: (_t, key) => Reflect.deleteProperty(value(), key),
  });
}
