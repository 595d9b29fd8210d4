// Types for <posenc-view> (the posenc-view package). Importing the package defines the element.
// Every attribute is a key of the posenc page's links (docs/embedding.md in the posenc repository):
// values are strings, as in HTML.

/** What `posenc-error` carries: `kind` names the cause, `message` is shown in the element. */
export interface PosencErrorDetail {
  kind: 'csp' | 'trusted-types' | 'load' | 'init';
  message: string;
}
/** What `posenc-render` carries: the view drawn and the time its render took. */
export interface PosencRenderDetail {
  view: string;
  ms: number;
}

/** The element's attributes (all optional strings). */
export interface PosencViewAttributes {
  view?:
    | 'heatmap'
    | 'waves'
    | 'similarity'
    | 'rotation'
    | 'bias'
    | 'learned'
    | 'extrapolation'
    | 'compare'
    | 'shuffle'
    | 'lab'
    | 'worked'
    | 'shift'
    | 'concat'
    | 'scaling'
    | 'positions'
    | 'recap';
  step?: string;
  method?: string;
  vs?: string;
  dim?: string | number;
  length?: string | number;
  base?: string | number;
  layout?: string;
  heads?: string | number;
  head?: string | number;
  rope?: string;
  scaling?: string;
  factor?: string | number;
  train?: string | number;
  palette?: string;
  buckets?: string | number;
  maxdist?: string | number;
  t5dir?: string;
  shawk?: string | number;
  sentence?: string;
  order?: string;
  causal?: string;
  labtask?: string;
  labmethods?: string;
  labsteps?: string | number;
  labseed?: string | number;
  labseeds?: string | number;
  pos?: string | number;
  kpos?: string | number;
  speed?: string | number;
  shift?: string | number;
  panel?: string;
  preset?: string;
  theme?: 'light' | 'dark' | 'auto';
  controls?: 'none' | 'own' | 'all';
  hide?: string;
  background?: string;
}

/** The element class (defined once per page as `posenc-view`). */
export declare class PosencView extends HTMLElement {
  static readonly observedAttributes: string[];
}

export interface PosencViewEventMap extends HTMLElementEventMap {
  'posenc-render': CustomEvent<PosencRenderDetail>;
  'posenc-layout': CustomEvent<{ view: string }>;
  'posenc-error': CustomEvent<PosencErrorDetail>;
}

declare global {
  interface HTMLElementTagNameMap {
    'posenc-view': PosencView;
  }
  interface HTMLElementEventMap {
    'posenc-render': CustomEvent<PosencRenderDetail>;
    'posenc-error': CustomEvent<PosencErrorDetail>;
  }
  // JSX (React 19, Preact, Solid and others that read the global JSX namespace): attributes as
  // strings, plus the host's own class/style/children/ref.
  namespace JSX {
    interface IntrinsicElements {
      'posenc-view': PosencViewAttributes & {
        class?: string;
        className?: string;
        style?: string | Record<string, string | number>;
        id?: string;
        children?: unknown;
        ref?: unknown;
        key?: string | number;
      };
    }
  }
}
