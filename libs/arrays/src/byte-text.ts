/** `50 4b 05 06`: how error messages show bytes that were not what we expected. */
export function hexBytes(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
}
