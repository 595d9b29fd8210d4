// Types for 'posenc-view/embed': the parts of an embed, as the package's components write them.
import type { PosencViewAttributes } from './index.js';

export type PosencEmbedKind = 'element' | 'iframe';
export type PosencViewName = NonNullable<PosencViewAttributes['view']>;

/** What posencEmbed takes: the view, the embed's kind, the posenc page's folder URL, attributes. */
export type PosencEmbedOptions = Omit<PosencViewAttributes, 'view'> & {
  view?: PosencViewName;
  embed?: PosencEmbedKind;
  /** The posenc page's folder URL, ending in '/' (default '/posenc/'). */
  page?: string;
};

export interface PosencEmbedParts {
  view: PosencViewName;
  /** The element's attributes, view first, as strings. */
  attrs: [string, string][];
  title: string;
  fallback: string;
  link: string;
  /** The reserved height: a CSS length of the column's width (inside container-type:inline-size). */
  height: string;
  frameSrc: string;
  /** The iframe's height attribute (px at a 680 px column); 0 for the element. */
  frameHeight: number;
}

export declare const ATTRIBUTES: string[];
export declare const VIEWS: PosencViewName[];
export declare function posencEmbed(options: PosencEmbedOptions): PosencEmbedParts;
export declare function embedHeight(options: {
  view: PosencViewName;
  embed?: PosencEmbedKind;
  params?: Record<string, string>;
  width: number;
}): number;
export declare function embedHeightCss(options: {
  view: PosencViewName;
  embed?: PosencEmbedKind;
  params?: Record<string, string>;
}): string;
