// Small data structures the pure libraries share (no framework, no I/O).
export { LruCache } from './lru-cache.js';
