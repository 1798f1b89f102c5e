type Listener = () => void;
const listeners = new Set<Listener>();

/** Tells the app the API answered 401: the session is gone, show sign-in. */
export function signedOut(): void {
  for (const listener of listeners) listener();
}

/** Subscribes to signedOut; returns the unsubscribe function. */
export function onSignedOut(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
