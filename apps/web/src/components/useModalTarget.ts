import { useCallback, useState } from 'react';

type State<T> = { isOpen: boolean; target: T | null; openKey: number };

/**
 * Open state plus what a modal or drawer was opened for. The target outlives `close()` so
 * the title and fields do not flip while the closing animation runs; `openKey` changes on
 * every open, so a form keyed by it starts fresh even when reopened mid-animation.
 */
export const useModalTarget = <T>() => {
  const [state, setState] = useState<State<T>>({ isOpen: false, target: null, openKey: 0 });
  const open = useCallback((target: T) => setState((s) => ({ isOpen: true, target, openKey: s.openKey + 1 })), []);
  const close = useCallback(() => setState((s) => ({ ...s, isOpen: false })), []);
  return { ...state, open, close };
};
