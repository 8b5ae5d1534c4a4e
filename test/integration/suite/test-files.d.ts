// Made by test/integration/build.mjs: one lazy import per *.test.ts in this folder, in name
// order, so that a new test file runs without being listed anywhere.
declare module 'integration-test-files' {
  const loaders: readonly (() => Promise<unknown>)[];
  export default loaders;
}
