// React 19 reads JSX types from the `react` module, not the global JSX namespace. Opt in with
//   import type {} from 'posenc-view/react';
// (only in a project with @types/react: augmenting a module that is absent is an error).
import type { PosencView, PosencViewAttributes } from './index.js';

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'posenc-view': PosencViewAttributes &
        React.DetailedHTMLProps<React.HTMLAttributes<PosencView>, PosencView> & { class?: string };
    }
  }
}
