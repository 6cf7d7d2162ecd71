import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface AsyncState<T> {
  value: T | undefined;
  error: unknown;
  loading: boolean;
  reload(): void;
  /** Replaces the value (after a change the page made itself). */
  set(value: T): void;
}

/** Loads once per change of `deps` (the previous load is aborted), and again on reload(). */
export function useAsync<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[]): AsyncState<T> {
  const [value, setValue] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [loading, setLoading] = useState(true);
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    setError(undefined);
    loadRef.current(controller.signal).then(
      (v) => {
        if (controller.signal.aborted) return;
        setValue(() => v);
        setLoading(false);
      },
      (e: unknown) => {
        if (controller.signal.aborted) return;
        setError(e);
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [...deps, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const set = useCallback((v: T) => setValue(() => v), []);
  return { value, error, loading, reload, set };
}

/** An AbortController per mounted component, aborted when it unmounts (streams and uploads stop with the page). */
export function useUnmountSignal(): AbortSignal {
  const controller = useRef<AbortController>(undefined);
  if (!controller.current) controller.current = new AbortController();
  useEffect(() => () => controller.current?.abort(), []);
  return controller.current.signal;
}

/** Sets the document title of a page. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · QDC console`;
  }, [title]);
}
