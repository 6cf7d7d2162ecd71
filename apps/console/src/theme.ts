/**
 * Dark mode: the system's preference (prefers-color-scheme) until the user presses the toggle, whose choice is kept
 * in localStorage (a display preference, not a secret) and applied as `data-theme` on <html>.
 */
const STORAGE = 'qdc.console.theme';
export type ThemeChoice = 'light' | 'dark' | undefined;

export function storedTheme(): ThemeChoice {
  try {
    const value = localStorage.getItem(STORAGE);
    return value === 'light' || value === 'dark' ? value : undefined;
  } catch {
    return undefined;
  }
}

export function storeTheme(choice: ThemeChoice): void {
  try {
    if (choice) localStorage.setItem(STORAGE, choice);
    else localStorage.removeItem(STORAGE);
  } catch {
    // storage disabled: the choice lasts until reload
  }
}

export function systemPrefersDark(): boolean {
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
}

export function applyTheme(choice: ThemeChoice): void {
  if (choice) document.documentElement.dataset.theme = choice;
  else delete document.documentElement.dataset.theme;
}
