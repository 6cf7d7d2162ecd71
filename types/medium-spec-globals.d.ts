// Only for type-checking specs (tsconfig.spec.json): medium tests read HTTP bodies untyped and assert their shape.
export {};
declare global {
  interface Response {
    // biome-ignore lint/suspicious/noExplicitAny: medium tests assert the shape of HTTP bodies; typing each one adds nothing.
    json(): Promise<any>;
  }
}
