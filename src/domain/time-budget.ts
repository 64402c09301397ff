/**
 * `work`, or `onLate()` when it has not settled within `budgetMs`. Timers run
 * before I/O in a loop turn: when the event loop was busy past the budget, an
 * answer already waiting on its socket would lose to the timer, and a healthy
 * dependency would count as down. The late answer is therefore decided in
 * setImmediate, after the turn's I/O: only work that really has not answered
 * is late. A late result of `work` is dropped, its rejection handled.
 */
export function withinBudget<T>(work: Promise<T>, budgetMs: number, onLate: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve, reject) => {
    timer = setTimeout(
      () =>
        setImmediate(() => {
          try {
            resolve(onLate());
          } catch (err) {
            reject(err);
          }
        }),
      budgetMs,
    );
  });
  work.catch(() => {});
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
