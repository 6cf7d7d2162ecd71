// Only for type-checking specs (tsconfig.spec.json): medium tests read HTTP bodies untyped and assert their shape.
export {};
declare global {
  interface Response {
    json(): Promise<any>;
  }
}
