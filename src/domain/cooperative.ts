/** How long an import may keep the event loop before letting the requests waiting on it run. */
export const TURN_MS = 5;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Passes `items` through, giving the event loop a turn (I/O, timers, other requests) whenever
 * `turnMs` of work has gone by since the last. A buffered stream's next chunk arrives as a
 * microtask, so a long import would otherwise parse megabytes without letting the public API
 * answer anything.
 */
export async function* yieldingEvery<T>(
  items: AsyncIterable<T> | Iterable<T>,
  turnMs = TURN_MS,
): AsyncGenerator<T> {
  let since = performance.now();
  for await (const item of items) {
    yield item;
    if (performance.now() - since >= turnMs) {
      await nextTurn();
      since = performance.now();
    }
  }
}
