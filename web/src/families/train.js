// The trainer's family from posenc/lite, in a module of its own so it is a chunk of its own (api.js LATER).
export { trainFamily } from 'posenc/lite';
