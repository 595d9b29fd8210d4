// A post in a React 18 or 19 app (Vite, Next.js): the posenc-view package's components, which
// write what the posenc page's "Copy embed code" writes, with the box of the state they embed, on
// the server as on the client. `page` is where the posenc page is served (a copy of its web/dist,
// or its host); the fallback links point there. Vite's dev server: add
// `optimizeDeps: { exclude: ['posenc-view'] }`.
import { PosencFrame, PosencView } from 'posenc-view/react';

export function Post() {
  return (
    <article>
      <h1>Positional encoding</h1>
      <p>A sinusoidal encoding, computed live:</p>
      <PosencView view="heatmap" method="sinusoidal" dim="64" theme="auto" page="/posenc/" />
      <p>RoPE rotates each pair of dimensions by an angle that grows with the position:</p>
      <PosencFrame view="rotation" method="rope" dim="32" theme="auto" page="/posenc/" />
    </article>
  );
}
