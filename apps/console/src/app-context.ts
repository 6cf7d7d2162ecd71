import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ConsoleApi } from './api/console-api.js';

/** What every page of a signed-in session gets. */
export interface AppContextValue {
  api: ConsoleApi;
  /** The key holds the admin scope (found at sign-in). */
  admin: boolean;
  /** The page is drawn dark (model plots are then asked for in dark mode too). */
  dark: boolean;
  /** Says something to screen-reader users through the polite live region. */
  announce(message: string): void;
}

export const AppContext = createContext<AppContextValue | null>(null);

export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error('useApp outside a signed-in session');
  return value;
}
