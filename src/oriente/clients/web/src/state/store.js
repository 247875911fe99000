// A small store: one state value, replaced (never changed in place) by a
// reducer for each action, and the subscribers told once per microtask
// however many actions came. Plain JavaScript, no Preact: the reducers and
// the store run as they are under Node's test runner (clients/web/test).
export function createStore(reduce, initial, schedule = queueMicrotask) {
  let state = initial;
  let queued = false;
  const subscribers = new Set();
  const tell = () => {
    queued = false;
    for (const fn of [...subscribers]) fn(state);
  };
  return {
    get state() { return state; },
    dispatch(action) {
      const next = reduce(state, action);
      if (next === state) return;
      state = next;
      if (!queued) {
        queued = true;
        schedule(tell);
      }
    },
    subscribe(fn) {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
  };
}
