// The one way a screen makes a change: the call, then a notice of what happened (green) and a reload
// of the lists it touched, or a notice of why it failed (red). Deleting asks first (DeleteButton).
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import type { NoticeState } from './Notice';

export function useAction<V = void, R = unknown>({
  run,
  done,
  notify,
  invalidates,
  after,
}: {
  run: (vars: V) => Promise<R>;
  /** The success notice's words (or a whole notice, when the answer says it went badly); null: none. */
  done: (result: R, vars: V) => string | NoticeState | null;
  notify: (notice: NoticeState) => void;
  /** The lists to load again after the change. */
  invalidates?: QueryKey;
  /** Anything else the screen does after the change (clear its form, open what was made). */
  after?: (result: R, vars: V) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (result, vars) => {
      after?.(result, vars);
      const notice = done(result, vars);
      if (notice !== null) notify(typeof notice === 'string' ? { ok: true, text: notice } : notice);
      if (invalidates) void queryClient.invalidateQueries({ queryKey: invalidates });
    },
    onError: (error: Error) => notify({ ok: false, text: error.message }),
  });
}
