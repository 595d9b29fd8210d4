// Attention's family from posenc/lite, in a module of its own so it is a chunk of its own (api.js LATER).
export { attentionFamily } from 'posenc/lite';
