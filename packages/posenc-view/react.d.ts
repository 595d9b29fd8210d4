// 'posenc-view/react': PosencView and PosencFrame (React 18 and 19), and the element's JSX types
// for React 19, which reads JSX types from the `react` module, not the global JSX namespace
// (`import type {} from 'posenc-view/react';` declares them without importing a component).
import type {
  PosencErrorDetail,
  PosencRenderDetail,
  PosencView as PosencViewElement,
  PosencViewAttributes,
} from './index.js';
import type { PosencEmbedOptions } from './embed.js';

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'posenc-view': PosencViewAttributes &
        React.DetailedHTMLProps<React.HTMLAttributes<PosencViewElement>, PosencViewElement> & { class?: string };
    }
  }
}

type Props = Omit<PosencEmbedOptions, 'embed'>;

/** <posenc-view> with its fallback link, reserving the view's height before the element runs. */
export declare function PosencView(
  props: Props & {
    onRender?: (e: CustomEvent<PosencRenderDetail>) => void;
    onError?: (e: CustomEvent<PosencErrorDetail>) => void;
  },
): import('react').ReactElement;
/** The iframe embed (the posenc page at `page`), reserving its height, sized by posenc-embed.js. */
export declare function PosencFrame(props: Props): import('react').ReactElement;
/** Load (once) the module that defines <posenc-view>. */
export declare function loadPosencView(): Promise<unknown>;
