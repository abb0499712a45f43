/**
 * A promise that settles in the event loop's next turn, after the I/O already waiting: `setImmediate` in Node, a
 * zero timeout where there is none (a web worker, the browser build's extension host).
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)));
}
