// posenc/worker for resolvers that do not read package.json "exports" (Parcel by default): the
// same module as js/worker.js, which "exports" maps posenc/worker to.
export * from './js/worker.js';
