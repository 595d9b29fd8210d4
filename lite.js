// posenc/lite for resolvers that do not read package.json "exports" (Parcel by default): the
// same module as js/lite.js, which "exports" maps posenc/lite to.
export * from './js/lite.js';
export { default } from './js/lite.js';
