// How a failed call is told to the owner, and a button's action that is busy while it runs: the
// same for every tab of the panel.
import { useState } from 'react';
import { describeError, SessionEndedError } from '../client.ts';
import { useNotify } from './Notice.tsx';

/** Tells the owner what went wrong, with the server's Russian reason; silent when the session ended. */
export function useFailure() {
  const notify = useNotify();
  return (err: unknown, what: string) => {
    if (err instanceof SessionEndedError) return;
    notify.error(describeError(err, what));
  };
}

/**
 * A button's action: `busy` while it runs, a failure told with `failure` (useFailure). What the
 * action did before it failed stays, and the owner may try again.
 */
export function useBusyAction() {
  const [busy, setBusy] = useState(false);
  const failed = useFailure();
  const run = async (action: () => Promise<void>, failure: string) => {
    setBusy(true);
    try {
      await action();
    } catch (err) {
      failed(err, failure);
    } finally {
      setBusy(false);
    }
  };
  return [busy, run] as const;
}
