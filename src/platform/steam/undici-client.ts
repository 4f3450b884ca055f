// What steam-http.ts loads on its first call. An ES module of our own in between: the bundle
// puts what is imported on demand in a chunk of its own, and a chunk made straight from
// undici's CommonJS would export only `default`; this one re-exports its names.
export { Agent } from "undici";
