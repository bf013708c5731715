import type { z } from 'zod';

/** Every lazy schema: fixed when its module loads, so its JSON Schema can come from the build. */
const lazy = new WeakSet<object>();

/**
 * A tool's input schema, built at its first use instead of when its module loads: building
 * every tool's zod schema at start is a good part of lathe's start-up, and a run validates
 * the calls of a few tools only. For a schema fixed when its module loads: a schema that
 * depends on settings or arguments is built with zod directly, where they are known.
 */
export function lazySchema<T extends z.ZodType>(build: () => T): T {
  let built: T | undefined;
  const schema = (): T => {
    built ??= build();
    return built;
  };
  // Every property and method is the built schema's own, so zod sees the schema it built.
  const proxy = new Proxy(Object.create(null) as T, {
    get: (_, key) => Reflect.get(schema(), key),
    set: (_, key, value) => Reflect.set(schema(), key, value),
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
    has: (_, key) => Reflect.has(schema(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      // A proxy may not report a property its target lacks as non-configurable.
      return descriptor ? { ...descriptor, configurable: true } : undefined;
    },
  });
  lazy.add(proxy);
  return proxy;
}

/** Whether this schema was declared with `lazySchema`. */
export function isLazySchema(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && lazy.has(schema);
}
