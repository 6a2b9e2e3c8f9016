/** Runs `task(0)` ... `task(count - 1)` with at most `concurrency` in flight, each started as soon as one settles. */
export async function runPool(count, concurrency, task) {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}
