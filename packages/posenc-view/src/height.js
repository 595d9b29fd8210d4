// The height an embed reserves, as the package's components ask for it: the page's own function
// (web/src/embed-heights.js embedHeight), decided from the embed's state and its column width.
export { embedHeight, embedHeightCss } from '../../../web/src/embed-heights.js';
