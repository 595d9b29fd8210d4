// Type declarations for posenc. Layouts are row-major; see README.md and docs/.
//
// They compile under `lib: ["es2022"]` alone (no DOM, no @types/node): the few platform types
// the API touches (a compiled WebAssembly module, a URL) are declared structurally below.
// A function given `out` returns that same object (a typed array or a PosencBuffer);
// without `out` it returns a new typed array.

// <generated: status codes> by tools/gen_status.js from decl/status.js
export type Status = {
  readonly OK: 0;
  readonly E_NULL: -1;
  readonly E_SIZE: -2;
  readonly E_ODD: -3;
  readonly E_PARAM: -4;
  readonly E_ENUM: -5;
  readonly E_RANGE: -6;
  readonly E_SCRATCH: -7;
  readonly E_MISSING: -8;
  readonly E_NOMEM: -9;
};
// </generated: status codes>
export declare const Status: Status;

export declare class PosencError extends Error {
  readonly name: 'PosencError';
  /** Negative status code (a Status value). */
  readonly code: number;
  /** e.g. 'POSENC_E_SIZE'. */
  readonly codeName: string;
  /** The offending argument, when one is to blame. */
  readonly argument?: string;
}

type ArrayType = Float32ArrayConstructor | Int32ArrayConstructor | Float64ArrayConstructor;

/** What a function returns for `out: O`: O itself when given, else a new array of type D. */
export type Returned<O, D> = O extends undefined ? D : O;

/** A zero-copy buffer on the wasm heap (pe.alloc). Accepted wherever a typed array of the same type is. */
export declare class PosencBuffer<T extends Float32Array | Int32Array | Float64Array = Float32Array> {
  readonly type: ArrayType;
  readonly length: number;
  /** Heap byte address; 0 once freed. */
  readonly ptr: number;
  readonly freed: boolean;
  /** A fresh view of the heap; re-read after any posenc call (the heap may have grown). */
  readonly array: T;
  /** Give the heap bytes back (also available as [Symbol.dispose] for `using` where supported). */
  free(): void;
}

export type F32 = Float32Array | PosencBuffer<Float32Array>;
export type I32 = Int32Array | PosencBuffer<Int32Array>;

/** A compiled WebAssembly.Module. Its lib type is an empty interface (which a number would
 * satisfy), and it only exists with the DOM lib or @types/node, so any object is accepted here. */
export type WasmModuleLike = object;
/** A URL object (WHATWG URL in browsers and Node). */
export interface UrlLike {
  readonly href: string;
  readonly protocol: string;
}

export interface InitOptions {
  /** 'auto' (default) picks SIMD128 when the engine validates it. */
  simd?: boolean | 'auto';
  /** Bring your own wasm (bytes, compiled WebAssembly.Module or URL), e.g. for single-file builds. */
  wasm?: ArrayBuffer | ArrayBufferView | WasmModuleLike | UrlLike | string;
  /** Also load the extrapolation lab's trainer (a separate wasm module): true, or { wasm } to give it. */
  lab?: boolean | { wasm?: ArrayBuffer | ArrayBufferView | WasmModuleLike | UrlLike | string };
}

export declare function simdSupported(): boolean;
export declare function init(opts?: InitOptions): Promise<Posenc>;
export default init;

// ---- rope ----
// <generated: rope scalings> by tools/gen_scalings.js from js/scalings.js
/** Frequency scaling (HF rope_scaling / rope_parameters, keys in camelCase; families/rope/rope.md#frequency-scaling-long-context). */
export type RopeScaling =
  /** The base frequencies. */
  | { type: 'default' }
  /** Position interpolation: inv_freq / factor. */
  | { type: 'linear'; factor: number }
  /** Static NTK-aware: base * factor^(d/(d-2)). */
  | { type: 'ntk'; factor: number }
  /** Dynamic NTK; seqLen absent: ropeFrequencies uses maxPositions (= default), ropeCache/applyRope the largest position + 1. */
  | { type: 'dynamic'; factor: number; maxPositions: number; seqLen?: number }
  /** YaRN: a ramp between w and w / factor over the pairs, and an attention scale. */
  | {
      type: 'yarn';
      factor: number;
      originalMaxPositions: number;
      betaFast?: number;
      betaSlow?: number;
      attentionFactor?: number;
      mscale?: number;
      mscaleAllDim?: number;
      truncate?: boolean;
    }
  /** Long factors when seqLen > originalMaxPositions; factor absent: maxPositions / originalMaxPositions, else 1. */
  | {
      type: 'longrope';
      shortFactor: ArrayLike<number>;
      longFactor: ArrayLike<number>;
      originalMaxPositions: number;
      factor?: number;
      maxPositions?: number;
      attentionFactor?: number;
      seqLen?: number;
    }
  /** Llama 3.1: keep the fast pairs, divide the slow ones by factor, smooth between (Meta's apply_scaling). */
  | { type: 'llama3'; factor?: number; lowFreqFactor?: number; highFreqFactor?: number; originalMaxPositions?: number };
// </generated: rope scalings>

/** cos and sin are new Float32Arrays unless the caller passed its own (then those are returned). */
export interface RopeCache<C extends F32 = Float32Array, S extends F32 = Float32Array> {
  /** [length][rotaryDim/2], multiplied by attentionScale. */
  cos: C;
  sin: S;
  attentionScale: number;
  /** [length, rotaryDim / 2]: onnxruntime's cos_cache / sin_cache dims (new ort.Tensor('float32', cos, dims)). */
  dims: [number, number];
}

// ---- relative ----
/** How ALiBi turns a slope m into a bias (families/relative/alibi.md). */
export type AlibiForm = 'relative' | 'symmetric' | 'reference';

// ---- attention ----
// <generated: bias kinds> by tools/gen_kinds.js from families/<family>/kind_<type>.js
/** The fused bias kinds attention takes. */
export type AttentionBiasKind =
  /** ALiBi with the slopes of `heads` heads: relative m·(j−i′), symmetric −m·|j−i′|, reference m·j. */
  | { type: 'alibi'; form?: 'relative' | 'symmetric' | 'reference' }
  /** T5: `weights` is relative_attention_bias [numBuckets][heads]; bidirectional defaults to !causal. */
  | { type: 't5'; weights: F32; bidirectional?: boolean; numBuckets?: number; maxDistance?: number }
  /** Shaw et al.: aK [2k+1][dim], aV [2k+1][dimV] shared by all heads, k = maxRelative. */
  | { type: 'shaw'; aK: F32; aV: F32; maxRelative: number }
  /** Transformer-XL: u, v [heads][dim] (r_w_bias, r_r_bias); r [rRows][heads][dim] = r_head_k in
   * Transformer-XL's descending order: row c encodes distance keys−1−c (rRows = keys for causal
   * attention; more rows continue into negative distances). Rows outside clamp to the nearest. */
  | { type: 'xl'; u: F32; v: F32; r: F32 };
/** The fused bias kinds selfAttention takes. */
export type SelfAttentionBiasKind =
  /** Default form: 'relative' when causal, else 'symmetric'. */
  | { type: 'alibi'; form?: 'relative' | 'symmetric' | 'reference' }
  /** weights [numBuckets][heads]; bidirectional defaults to !causal; logits are unscaled (T5). */
  | { type: 't5'; weights: F32; bidirectional?: boolean; numBuckets?: number; maxDistance?: number }
  /** aK, aV [2k+1][dModel/heads] */
  | { type: 'shaw'; aK: F32; aV: F32; maxRelative: number }
  /** u, v [heads][dModel/heads]; wr [dModel][dModel] projects the sinusoid of relative distance. */
  | { type: 'xl'; u: F32; v: F32; wr: F32 };
/** The fused bias kinds kvCache takes. */
export type KvCacheBiasKind =
  | { type: 'alibi'; form?: 'relative' | 'symmetric' | 'reference' }
  | { type: 't5'; weights: F32; bidirectional?: boolean; numBuckets?: number; maxDistance?: number }
  | { type: 'shaw'; aK: F32; aV: F32; maxRelative: number };
// </generated: bias kinds>
/** Positional biases fused into the attention loop (never materialised). */
export type AttentionBias =
  /** Dense additive bias [heads][queries][keys]; -Infinity blocks an entry (NaN/+Infinity are errors). */
  | F32
  /** A bias kind fused into the loop (ALiBi, T5, Shaw, Transformer-XL, ...). */
  | AttentionBiasKind;

export interface AttentionResult<W = Float32Array | null, O extends F32 = Float32Array> {
  /** [queries][heads][dimV]; a fully masked row is zeros. The caller's `out` when one was given. */
  output: O;
  /** [heads][queries][keys] softmax weights, or null unless returnWeights. */
  weights: W;
}

export type SelfAttentionEncoding =
  | { type: 'none' }
  /** x + sinusoidal PE (paper, interleaved) at positions offset.. */
  | { type: 'sinusoidal'; base?: number; offset?: number }
  /** x + table rows offset.. ; table [rows >= length + offset][dModel] */
  | { type: 'learned'; table: F32; offset?: number }
  /** RoPE on q and k per head (needs the RoPE family in the build): applyRope's frequency options
   * (rotaryDim <= dModel/heads, scaling including its attention scale) at positions offset.. */
  | {
      type: 'rope';
      base?: number;
      offset?: number;
      layout?: 'half' | 'interleaved';
      rotaryDim?: number;
      scaling?: RopeScaling;
    }
  | SelfAttentionBiasKind;

export interface SelfAttentionResult {
  /** [length][dModel] (heads concatenated, no output projection). */
  output: Float32Array;
  /** [heads][length][length], or null when returnWeights is false. */
  weights: Float32Array | null;
  /** Mean of output over tokens, [dModel]: invariant to token order without positions. */
  pooled: Float32Array;
}

// ---- extrapolation lab (families/train/train.js) ----------------------------------------------------
export type LabTask = 'copy' | 'periodic' | 'first' | 'ngram';
export type LabMethod = 'none' | 'learned' | 'sinusoidal' | 'rope' | 'alibi' | 't5';
export interface TrainProgress {
  step: number;
  steps: number;
  loss: number;
  losses: Float32Array;
  table: Float32Array | null; // the learned position table [length][dim] (method 'learned')
}
export interface LabModel {
  format: 'posenc-lab-1';
  task: LabTask;
  method: LabMethod;
  length: number;
  steps: number;
  seed: number;
  dim: number;
  heads: number;
  layers: number;
  hidden: number;
  batch: number;
  k: number;
  lr: number;
  weightDecay: number;
  clip: number;
  beta1: number;
  beta2: number;
  eps: number;
  stepsDone: number;
  params: Float32Array;
}
export interface Evaluation {
  lengths: number[];
  accuracy: (number | null)[]; // null: not defined (learned past its table)
  loss: (number | null)[];
  beyond: (number | null)[]; // accuracy over positions >= the training length only (null: none)
  beyondLoss: (number | null)[];
  oracle: (number | null)[]; // the best possible accuracy on the same targets (1 except ngram)
  trainLength: number;
  scaling: string;
}

/** A per-query scale as a function of the query's absolute position (Llama 4 temperature tuning,
 * Qwen 1 logn, Ministral 3); `formula` says what it computes. */
export interface QueryScaleFn {
  (position: number): number;
  readonly formula: string;
}
/** The attention() / kvCache() options of a layer. scale excludes the RoPE attention factor
 * (applyRope already multiplies q and k by it) and includes DeepSeek's mscale², Gemma's
 * query_pre_attn_scalar^-1/2 and Granite's attention_multiplier. */
export interface ModelAttention {
  heads: number;
  kvHeads: number;
  dim: number;
  dimV?: number;
  scale: number;
  window?: number;
  chunk?: number;
  queryScale?: QueryScaleFn;
}
/** One options object for ropeFrequencies, ropeCache and applyRope (add length, heads, x). */
export interface ModelRope {
  dim: number;
  rotaryDim?: number;
  base: number;
  layout: 'half' | 'interleaved';
  scaling?: RopeScaling;
  mropeSections?: [number, number, number];
  mropeInterleaved?: boolean;
}
/** What every fromConfig result has (families/config/models.md). */
export interface ModelSpecBase {
  /** The model type whose row applied (text_config's for a multimodal wrapper). */
  model: string;
  layer: number;
  layers?: number;
  layerType?: 'full_attention' | 'sliding_attention' | 'chunked_attention' | 'linear_attention' | 'mamba' | 'conv';
  /** What posenc does not do for this model, keys ignored as Hugging Face ignores them, run-time
   * rules (Qwen 1 dynamic NTK), and an `as` assumption. */
  notes: string[];
  /** Every config key read, with its value (dotted paths), for display. */
  source: Record<string, unknown>;
  /** Keys the config omitted, with the config class's defaults that were used. */
  defaults: Record<string, unknown>;
}
/** A RoPE layer: spec.encoding goes to kvCache as is. */
export interface RopeModelSpec extends ModelSpecBase {
  family: 'rope';
  rope: ModelRope;
  attention: ModelAttention;
  encoding: {
    type: 'rope';
    base: number;
    layout: 'half' | 'interleaved';
    rotaryDim?: number;
    scaling?: RopeScaling;
    mropeSections?: [number, number, number];
    mropeInterleaved?: boolean;
  };
  /** DeepSeek: the mscale² folded into attention.scale. */
  mscale2?: number;
}
/** An ALiBi layer: alibiSlopes(alibi.heads); biasScale (Falcon) multiplies the whole bias. */
export interface AlibiModelSpec extends ModelSpecBase {
  family: 'alibi';
  alibi: { heads: number; biasScale?: number };
  attention: ModelAttention;
  encoding: { type: 'alibi' };
}
/** A T5 layer: kvCache needs the model's bucket weights added, { ...spec.encoding, weights }. */
export interface T5ModelSpec extends ModelSpecBase {
  family: 't5';
  t5: { numBuckets: number; maxDistance: number; bidirectional: boolean };
  /** Which stack (fromConfig's decoder option). */
  stack: 'encoder' | 'decoder';
  /** MPNet: a learned table added to the tokens as well (positions from row offset). */
  learned?: { rows: number; offset: number };
  attention: ModelAttention;
  encoding: { type: 't5'; numBuckets: number; maxDistance: number; bidirectional: boolean };
}
/** A learned absolute table: rows, and offset = the row of position 0 (OPT, BART 2, RoBERTa
 * padding_idx + 1). A vision tower's rows are its patches (CLIP: the class token first). */
export interface LearnedModelSpec extends ModelSpecBase {
  family: 'learned';
  learned: { rows: number; offset?: number };
  /** An encoder-decoder's stack (Whisper, BART, mBART): fromConfig's decoder option. */
  stack?: 'encoder' | 'decoder';
  attention: ModelAttention;
  encoding: { type: 'none' };
}
/** A fixed sinusoid table added to the tokens (Whisper's encoder): pe.sinusoidal({ length,
 * ...spec.sinusoidal }) is its first length rows; rows is the table's size. */
export interface SinusoidalModelSpec extends ModelSpecBase {
  family: 'sinusoidal';
  sinusoidal: { dim: number; base: number; layout: 'interleaved' | 'split'; spacing: 'paper' | 't2t' };
  rows: number;
  stack?: 'encoder' | 'decoder';
  attention: ModelAttention;
  encoding: { type: 'none' };
}
/** An attention layer without positions (Llama 4 / SmolLM3 NoPE, Cohere 2 and EXAONE 4 global
 * layers, Jamba's attention layers); reason says which rule. */
export interface NoPositionModelSpec extends ModelSpecBase {
  family: 'none';
  reason: string;
  attention: ModelAttention;
  encoding: { type: 'none' };
}
/** A layer without attention (Jamba's Mamba layers, Qwen3.5's linear_attention layers, LFM2's conv layers). */
export interface NoAttentionModelSpec extends ModelSpecBase {
  family: 'none';
  layerType: 'mamba' | 'linear_attention' | 'conv';
  reason: string;
  attention: null;
  encoding: null;
}
/** What fromConfig returns for one layer of a Hugging Face model, by family (families/config/models.md). */
export type ModelSpec =
  | RopeModelSpec
  | AlibiModelSpec
  | T5ModelSpec
  | LearnedModelSpec
  | SinusoidalModelSpec
  | NoPositionModelSpec
  | NoAttentionModelSpec;

export interface Posenc {
  readonly backend: 'simd' | 'scalar';
  // <generated: alloc> by tools/gen_decls.js from the declarations (families/NAME/decl.js)
  alloc(length: number, type: 'int32'): PosencBuffer<Int32Array>;
  alloc(length: number, type: 'float64'): PosencBuffer<Float64Array>;
  alloc(length: number, type?: 'float32'): PosencBuffer<Float32Array>;
  // </generated: alloc>
  readonly heapBytes: number;
  readonly heapInUse: number;
}

// ---- grouped-query attention and the KV cache (families/attention/attention.md) ----
/** A factor per query: a Float32Array [queries], or a function of the query's absolute
 * position (fromConfig's attention.queryScale). It multiplies the query before its dot products
 * (Llama 4 attention temperature tuning, Qwen 1 logn); the bias is not scaled. */
export type QueryScale = F32 | ((position: number) => number);
export type KvCacheEncoding =
  | { type: 'none' }
  | {
      type: 'rope';
      base?: number;
      rotaryDim?: number;
      layout?: 'half' | 'interleaved';
      scaling?: RopeScaling;
      /** Multimodal RoPE: append and attend then take positions (3 × n: t, h, w). */
      mropeSections?: readonly [number, number, number] | number[];
      mropeInterleaved?: boolean;
    }
  | KvCacheBiasKind;
/** A float32 tensor as onnxruntime-web and transformers.js hold one (their Tensor classes fit). */
export interface PastTensor<D extends Float32Array = Float32Array> {
  readonly type?: 'float32';
  readonly data: D;
  readonly dims: readonly number[];
}
export interface KvCache {
  /** Append n tokens: k [n][kvHeads][dim], v [n][kvHeads][dimV] (RoPE'd at their positions).
   * tokens: the n meant; k of any other length is refused (keys laid out for other heads). */
  append(k: F32, v: F32, opts?: { positions?: I32 | F32; tokens?: number }): this;
  /** Queries of the last n appended tokens, q [n][heads][dim] → output [n][heads][dimV]. */
  attend(
    q: F32,
    opts?: { out?: F32; positions?: I32 | F32; queryScale?: F32; tokens?: number },
  ): { output: Float32Array };
  readonly length: number;
  readonly capacity: number;
  readonly heads: number;
  readonly kvHeads: number;
  /** Continue a sequence computed elsewhere: onnxruntime's present_key / present_value or
   * transformers.js's past_key_values ([batch][kvHeads][seq][dim], float32, keys already rotated),
   * as a Tensor or a Float32Array; stored at slots length .. without rotating again. positions
   * (their position_ids) must be length, length + 1, ..; batch picks a row (default 0). */
  importPast(
    key: PastTensor | Float32Array,
    value: PastTensor | Float32Array,
    opts?: { positions?: Int32Array | BigInt64Array; tokens?: number; batch?: number },
  ): this;
  /** The cache as present_key / present_value: dims [1, kvHeads, length, dim] (dimV), keys rotated. */
  exportPresent(): { key: PastTensor; value: PastTensor };
  /** Keep the first n tokens (0 <= n <= length). */
  truncate(n: number): this;
  /** Release the cache's wasm memory (also [Symbol.dispose], for `using`, where the runtime has it). */
  free(): void;
}
// ---- the families' API interfaces: their options and signatures (decl/*.js), and Posenc has them all ----
// <generated: family apis> by tools/gen_decls.js from the declarations (families/NAME/decl.js)
export interface SinusoidalOptions {
  /** rows (positions); ≥ 1. */
  length: number;
  /** columns; ≥ 1, even unless oddDim is 'pad' or 'xlm'. */
  dim: number;
  /** the frequency base; > 1; default 10000. */
  base?: number;
  /** sin/cos pairing; default 'interleaved'. */
  layout?: 'interleaved' | 'split';
  /** frequency spacing; default 'paper'. */
  spacing?: 'paper' | 't2t';
  /** the first row is position offset; |offset| + length ≤ 2^31; default 0. */
  offset?: number;
  /** what an odd dim means; default 'error'. */
  oddDim?: 'error' | 'pad' | 'xlm';
  /** a buffer the result is written into (and returned). */
  out?: F32;
}
export interface Sinusoidal2dOptions {
  /** grid rows; ≥ 1. */
  height: number;
  /** grid columns; ≥ 1. */
  width: number;
  /** columns; ≥ 4, a multiple of 4. */
  dim: number;
  /** the frequency base; > 1; default 10000. */
  base?: number;
  /** a leading all-zero row; default false. */
  clsToken?: boolean;
  /** a buffer the result is written into (and returned). */
  out?: F32;
}
export interface SinusoidalApi {
  sinusoidal<O extends F32 | undefined = undefined>(opts: SinusoidalOptions & { out?: O }): Returned<O, Float32Array>;
  sinusoidalFrequencies(opts: {
    /** the table width; ≥ 1, ≤ 2^28, even unless oddDim is 'pad' or 'xlm'. */
    dim: number;
    /** the frequency base; > 1; default 10000. */
    base?: number;
    /** frequency spacing; default 'paper'. */
    spacing?: 'paper' | 't2t';
    /** what an odd dim means; default 'error'. */
    oddDim?: 'error' | 'pad' | 'xlm';
  }): Float64Array;
  sinusoidal2d<O extends F32 | undefined = undefined>(
    opts: Sinusoidal2dOptions & { out?: O },
  ): Returned<O, Float32Array>;
  similarity<O extends F32 | undefined = undefined>(
    table: F32,
    opts: {
      /** rows of the table; ≥ 1. */
      length: number;
      /** columns of the table; ≥ 1. */
      dim: number;
      /** cosine similarity instead of dot products; default false. */
      normalize?: boolean;
      /** a buffer the result is written into (and returned). */
      out?: O;
    },
  ): Returned<O, Float32Array>;
}
export interface RopeFrequencyOptions {
  /** head size; ≥ 2, ≤ 2^28, even. */
  dim: number;
  /** the frequency base (HF rope_theta); > 1; default 10000. */
  base?: number;
  /** the rotated width; frequencies use it (GPT-NeoX rotary_pct, HF partial_rotary_factor); ≥ 2, ≤ dim, even; default dim. */
  rotaryDim?: number;
  /** frequency scaling (families/rope/rope.md#frequency-scaling-long-context). */
  scaling?: RopeScaling;
  /** pairing: 'half' (x[i], x[i + r/2]) GPT-NeoX, HF Llama; 'interleaved' (x[2i], x[2i+1]) GPT-J, RoFormer, Meta; default 'half'. */
  layout?: 'half' | 'interleaved';
  /** multimodal RoPE (Qwen2-VL): pairs turned by the t, h and w position streams, summing to rotaryDim/2. */
  mropeSections?: readonly [number, number, number] | number[];
  /** Qwen3-VL's interleaved M-RoPE: pairs 1, 4, 7... take h, 2, 5, 8... take w (needs mropeSections); default false. */
  mropeInterleaved?: boolean;
}
export interface RopeCacheOptions {
  /** rows (positions); ≥ 1. */
  length: number;
  /** row t is position offset + t (a fraction is allowed); |offset| + length ≤ 2^30; default 0. */
  offset?: number;
  /** with mropeSections only: [3][length] positions (t, then h, then w); no offset then. */
  positions?: I32 | F32;
  /** head size; ≥ 2, ≤ 2^28, even. */
  dim: number;
  /** the frequency base (HF rope_theta); > 1; default 10000. */
  base?: number;
  /** the rotated width; frequencies use it (GPT-NeoX rotary_pct, HF partial_rotary_factor); ≥ 2, ≤ dim, even; default dim. */
  rotaryDim?: number;
  /** frequency scaling (families/rope/rope.md#frequency-scaling-long-context). */
  scaling?: RopeScaling;
  /** pairing: 'half' (x[i], x[i + r/2]) GPT-NeoX, HF Llama; 'interleaved' (x[2i], x[2i+1]) GPT-J, RoFormer, Meta; default 'half'. */
  layout?: 'half' | 'interleaved';
  /** multimodal RoPE (Qwen2-VL): pairs turned by the t, h and w position streams, summing to rotaryDim/2. */
  mropeSections?: readonly [number, number, number] | number[];
  /** Qwen3-VL's interleaved M-RoPE: pairs 1, 4, 7... take h, 2, 5, 8... take w (needs mropeSections); default false. */
  mropeInterleaved?: boolean;
  /** a buffer the cosines are written into (and returned). */
  cos?: F32;
  /** a buffer the sines are written into (and returned). */
  sin?: F32;
}
export interface ApplyRopeOptions {
  /** tokens; ≥ 1; default axial.height · axial.width with axial (else required). */
  length?: number;
  /** heads per token; ≥ 1; default 1. */
  heads?: number;
  /** a position per token (Float32Array: interpolated positions); offset is then 0 or omitted. With mropeSections: 3 × length. */
  positions?: I32 | F32;
  /** token t is at position offset + t (decoding with a KV cache); |offset| + length ≤ 2^30; an integer ≥ 0 with cache; default 0. */
  offset?: number;
  /** x is [length][heads][dim] (thd) or [heads][length][dim]; default 'thd'. */
  order?: 'thd' | 'htd';
  /** head size; ≥ 2, ≤ 2^28, even. */
  dim: number;
  /** the frequency base (HF rope_theta); > 1; default 10000. */
  base?: number;
  /** the rotated width; frequencies use it (GPT-NeoX rotary_pct, HF partial_rotary_factor); ≥ 2, ≤ dim, even; default dim. */
  rotaryDim?: number;
  /** frequency scaling (families/rope/rope.md#frequency-scaling-long-context). */
  scaling?: RopeScaling;
  /** pairing: 'half' (x[i], x[i + r/2]) GPT-NeoX, HF Llama; 'interleaved' (x[2i], x[2i+1]) GPT-J, RoFormer, Meta; default 'half'. */
  layout?: 'half' | 'interleaved';
  /** multimodal RoPE (Qwen2-VL): pairs turned by the t, h and w position streams, summing to rotaryDim/2. */
  mropeSections?: readonly [number, number, number] | number[];
  /** Qwen3-VL's interleaved M-RoPE: pairs 1, 4, 7... take h, 2, 5, 8... take w (needs mropeSections); default false. */
  mropeInterleaved?: boolean;
  /** xPos: queries scaled by zeta^((p − center)/scaleBase), keys (key: true) by the inverse. */
  xpos?: { scaleBase?: number; center?: number; key?: boolean };
  /** 2-D axial RoPE: tokens are a row-major grid; the first rotaryDim/2 components rotate by row, the rest by column. */
  axial?: { height: number; width: number };
  /** a ropeCache result ([rows][rotaryDim/2]); positions (Int32Array) or offset pick its rows. */
  cache?: { cos: F32; sin: F32; attentionScale?: number; dims?: readonly number[] };
}
export interface RopeApi {
  /** invFreq: float64 results rounded once to float32; invFreq64: the float64 values. */
  ropeFrequencies(opts: RopeFrequencyOptions): {
    invFreq: Float32Array;
    invFreq64: Float64Array;
    attentionScale: number;
  };
  ropeCache<C extends F32 | undefined = undefined, S extends F32 | undefined = undefined>(
    opts: RopeCacheOptions & { cos?: C; sin?: S },
  ): RopeCache<Returned<C, Float32Array>, Returned<S, Float32Array>>;
  /** Rotates x ([length][heads][dim], or [heads][length][dim] with order htd) in place; returns x. */
  applyRope<T extends F32>(x: T, opts: ApplyRopeOptions): T;
  /** RoFormer long-term decay (families/rope/rope.md), distances 0..maxDistance. */
  ropeDecay(opts: {
    /** head size; ≥ 2, ≤ 2^20, even. */
    dim: number;
    /** the frequency base (HF rope_theta); > 1; default 10000. */
    base?: number;
    /** the largest distance; ≥ 0, ≤ 2^24. */
    maxDistance: number;
  }): Float64Array;
}
export interface T5BucketOptions {
  /** encoder (true); false = decoder self-attention (future keys collapse to bucket 0); default true. */
  bidirectional?: boolean;
  /** buckets (HF relative_attention_num_buckets); at least 2 when not bidirectional; ≥ 4, ≤ 2^20; default 32. */
  numBuckets?: number;
  /** the distance of the last bucket (HF relative_attention_max_distance); ≥ 2, > numBuckets/4 (bidirectional) or numBuckets/2; default 128. */
  maxDistance?: number;
  /** query i sits at position i + offset; ≥ −(2^31−1), ≤ 2^31−1; default 0. */
  offset?: number;
}
export interface AlibiBiasOptions {
  /** heads; ≥ 1. */
  heads: number;
  /** query rows; ≥ 1. */
  queries: number;
  /** key columns; ≥ 1; default queries. */
  keys?: number;
  /** 'relative' m·(j−i), 'symmetric' −m·|j−i| (encoders), 'reference' m·j (fairseq); default 'relative'. */
  form?: AlibiForm;
  /** keys with rp > 0 (j > i + offset) get −Infinity; default true. */
  causal?: boolean;
  /** query i sits at position i + offset (decoding with a cache: keys − queries); ≥ −(2^31−1), ≤ 2^31−1; default 0. */
  offset?: number;
  /** a buffer the result is written into (and returned). */
  out?: F32;
}
/** The relative family and the learned tables (registered together, issue 4). */
export interface RelativeApi extends LearnedApi {
  /** ALiBi slopes (closed form with exp2) as float32; equal to Python's float64 list after float32 rounding. */
  alibiSlopes<O extends F32 | undefined = undefined>(
    heads: number,
    opts?: {
      /** a buffer the result is written into (and returned). */
      out?: O;
    },
  ): Returned<O, Float32Array>;
  /** [heads][queries][keys], masked = −Infinity. */
  alibiBias<O extends F32 | undefined = undefined>(opts: AlibiBiasOptions & { out?: O }): Returned<O, Float32Array>;
  /** Exact T5 buckets of rp = j − (i + offset): Int32Array [queries][keys]. */
  t5Buckets<O extends I32 | undefined = undefined>(opts: {
    /** query rows; ≥ 1. */
    queries: number;
    /** key columns; ≥ 1; default queries. */
    keys?: number;
    /** encoder (true); false = decoder self-attention (future keys collapse to bucket 0); default true. */
    bidirectional?: boolean;
    /** buckets (HF relative_attention_num_buckets); at least 2 when not bidirectional; ≥ 4, ≤ 2^20; default 32. */
    numBuckets?: number;
    /** the distance of the last bucket (HF relative_attention_max_distance); ≥ 2, > numBuckets/4 (bidirectional) or numBuckets/2; default 128. */
    maxDistance?: number;
    /** query i sits at position i + offset; ≥ −(2^31−1), ≤ 2^31−1; default 0. */
    offset?: number;
    /** a buffer the result is written into (and returned). */
    out?: O;
  }): Returned<O, Int32Array>;
  /** [heads][queries][keys] = weights[bucket][h]; weights is [numBuckets][heads] and finite. */
  t5Bias<O extends F32 | undefined = undefined>(opts: {
    /** [numBuckets][heads], finite (HF relative_attention_bias's weight). */
    weights: F32;
    /** heads; ≥ 1. */
    heads: number;
    /** query rows; ≥ 1. */
    queries: number;
    /** key columns; ≥ 1; default queries. */
    keys?: number;
    /** encoder (true); false = decoder self-attention (future keys collapse to bucket 0); default true. */
    bidirectional?: boolean;
    /** buckets (HF relative_attention_num_buckets); at least 2 when not bidirectional; ≥ 4, ≤ 2^20; default 32. */
    numBuckets?: number;
    /** the distance of the last bucket (HF relative_attention_max_distance); ≥ 2, > numBuckets/4 (bidirectional) or numBuckets/2; default 128. */
    maxDistance?: number;
    /** query i sits at position i + offset; ≥ −(2^31−1), ≤ 2^31−1; default 0. */
    offset?: number;
    /** a buffer the result is written into (and returned). */
    out?: O;
  }): Returned<O, Float32Array>;
  /** Shaw et al. indices clip(rp, −maxRelative, maxRelative) + maxRelative, Int32Array [queries][keys]; offset defaults to keys − queries: the queries are the last `queries` key positions (tensor2tensor). */
  shawIndices<O extends I32 | undefined = undefined>(opts: {
    /** query rows; ≥ 1. */
    queries: number;
    /** key columns; ≥ 1; default queries. */
    keys?: number;
    /** the clipping distance k; ≥ 1, ≤ 2^28. */
    maxRelative: number;
    /** query i sits at position i + offset; ≥ −(2^31−1), ≤ 2^31−1; default keys − queries. */
    offset?: number;
    /** a buffer the result is written into (and returned). */
    out?: O;
  }): Returned<O, Int32Array>;
  /** Transformer-XL R [klen][dim]: row t = [sin(p·w) | cos(p·w)], p = klen−1−t (≤ clampLen when clampLen > 0; ≤ 0, e.g. XL's −1, means no clamp). */
  xlPositions<O extends F32 | undefined = undefined>(opts: {
    /** rows (key positions); ≥ 1. */
    klen: number;
    /** columns; ≥ 1, even. */
    dim: number;
    /** the frequency base; > 1; default 10000. */
    base?: number;
    /** positions above it are clamped to it when > 0; ≤ 0 (XL's −1) means no clamp; ≥ −(2^31−1); default 0. */
    clampLen?: number;
    /** a buffer the result is written into (and returned). */
    out?: O;
  }): Returned<O, Float32Array>;
  /** Rel-shift by indexing: out[i][j] = scores[i][j + queries−1−i] for j ≤ i + memory, 0 elsewhere; keys = queries + memory (either may be given). Pass out: scores (a PosencBuffer) to shift in place. */
  relShift<O extends F32 | undefined = undefined>(
    scores: F32,
    opts: {
      /** query rows; ≥ 1. */
      queries: number;
      /** key columns; ≥ 1, ≥ queries; default queries + memory. */
      keys?: number;
      /** cached positions before the queries; ≥ 0; default keys − queries. */
      memory?: number;
      /** a buffer the result is written into (and returned). */
      out?: O;
    },
  ): Returned<O, Float32Array>;
  /** Transformer-XL score [heads][queries][keys]: scale·((q+u)·k_j + (q+v)·r_{j+queries−1−i}) for j ≤ i + (keys − queries), −Infinity elsewhere. */
  xlScores<O extends F32 | undefined = undefined>(opts: {
    /** queries [queries][heads][dim]. */
    q: F32;
    /** keys [keys][heads][dim]. */
    k: F32;
    /** the projected relative positions [keys][heads][dim]. */
    r: F32;
    /** the content bias [heads][dim] (r_w_bias). */
    u: F32;
    /** the position bias [heads][dim] (r_r_bias). */
    v: F32;
    /** query rows; ≥ 1. */
    queries: number;
    /** key columns; ≥ 1, ≥ queries; default queries. */
    keys?: number;
    /** heads; ≥ 1; default 1. */
    heads?: number;
    /** head size; ≥ 1. */
    dim: number;
    /** the score scale; default 1/sqrt(dim). */
    scale?: number;
    /** a buffer the result is written into (and returned). */
    out?: O;
  }): Returned<O, Float32Array>;
}
export interface LearnedApi {
  /** [length][dim] ~ N(0, std²) (truncated: redrawn beyond 2·std), bit-identical on every build. */
  learnedInit<O extends F32 | undefined = undefined>(opts: {
    /** rows (positions); ≥ 1. */
    length: number;
    /** columns; ≥ 1. */
    dim: number;
    /** standard deviation (BERT, GPT-2: 0.02); ≥ 0, ≤ 1e+37; default 0.02. */
    std?: number;
    /** the generator seed; ≥ 0, ≤ 2^32−1; default 0. */
    seed?: number;
    /** draws beyond 2 std are redrawn; default false. */
    truncated?: boolean;
    /** a buffer the result is written into (and returned). */
    out?: O;
  }): Returned<O, Float32Array>;
  /** Rows of table [rows][dim] at `positions`. */
  gather<O extends F32 | undefined = undefined>(
    table: F32,
    opts: {
      /** rows of the table; ≥ 1; default table.length / dim. */
      rows?: number;
      /** columns of the table; ≥ 1. */
      dim: number;
      /** the rows to read (at least one). */
      positions: Int32Array | PosencBuffer<Int32Array> | number[];
      /** a position outside the table: refused, clamped to the nearest row, or a zero row (tensor2tensor); default 'error'. */
      outOfRange?: 'error' | 'clamp' | 'zero';
      /** a buffer the result is written into (and returned). */
      out?: O;
    },
  ): Returned<O, Float32Array>;
  /** x[p] += table[offset + p], in place; returns x. */
  addTo<T extends F32>(
    x: T,
    table: F32,
    opts: {
      /** rows of x; ≥ 1. */
      length: number;
      /** columns of x and of the table; ≥ 1. */
      dim: number;
      /** x row i gets table row offset + i; ≥ 0; default 0. */
      offset?: number;
      /** rows of the table; ≥ 1; default table.length / dim. */
      rows?: number;
    },
  ): T;
  /** [length][dimX + dimP] = [x[p], table[offset + p]]. */
  concat<O extends F32 | undefined = undefined>(
    x: F32,
    table: F32,
    opts: {
      /** rows of x; ≥ 1. */
      length: number;
      /** columns of x; ≥ 1. */
      dimX: number;
      /** columns of the table; ≥ 1. */
      dimP: number;
      /** row i gets table row offset + i; ≥ 0; default 0. */
      offset?: number;
      /** rows of the table; ≥ 1; default table.length / dimP. */
      rows?: number;
      /** a buffer the result is written into (and returned). */
      out?: O;
    },
  ): Returned<O, Float32Array>;
}
export interface AttentionOptions {
  /** queries [queries][heads][dim]. */
  q: F32;
  /** keys [keys][kvHeads][dim]. */
  k: F32;
  /** values [keys][kvHeads][dimV]. */
  v: F32;
  /** query rows; ≥ 1. */
  queries: number;
  /** key rows; ≥ 1; default queries. */
  keys?: number;
  /** head size of q and k; ≥ 1. */
  dim: number;
  /** head size of v; ≥ 1; default dim. */
  dimV?: number;
  /** query heads; ≥ 1; default 1. */
  heads?: number;
  /** key/value heads (grouped-query attention; 1 = multi-query); ≥ 1, a divisor of heads; default heads. */
  kvHeads?: number;
  /** the logit scale; ≥ -3e+38, ≤ 3e+38; default 1/sqrt(dim). */
  scale?: number;
  /** mask the keys after each query; default false. */
  causal?: boolean;
  /** causal mask: j ≤ i (torch SDPA) or j ≤ i + keys − queries (KV cache); required with causal when queries < keys; default 'top-left'. */
  align?: 'top-left' | 'bottom-right';
  /** query i sits at position i + offset for positional biases (key j at j); ≥ −2^30, ≤ 2^30; default keys − queries with 'bottom-right', else 0. */
  offset?: number;
  /** a positional bias fused into the loop (never materialised). */
  bias?: AttentionBias;
  /** return the softmax weights [heads][queries][keys] (else none is made: online softmax); default false. */
  returnWeights?: boolean;
  /** a buffer the output is written into (and returned). */
  out?: F32;
  /** a factor per query: Float32Array [queries], or a function of the query's absolute position (Llama 4, Qwen 1 logn). */
  queryScale?: QueryScale;
  /** chunked local attention (Llama 4 attention_chunk_size): a query sees the keys of its own chunk; 0 = none; ≥ 0; default 0. */
  chunk?: number;
  /** sliding window (HF sliding_window): a query at p sees keys j with |p − j| < window; 0 = none; ≥ 0; default 0. */
  window?: number;
}
export interface SelfAttentionOptions {
  /** context-free token vectors [length][dModel]. */
  tokens: F32;
  /** tokens; ≥ 1; default tokens.length / dModel. */
  length?: number;
  /** the model width; ≥ 1. */
  dModel: number;
  /** [dModel][dModel], q = x · wq (row-major, input index first). */
  wq: F32;
  /** [dModel][kvHeads · dModel / heads]. */
  wk: F32;
  /** [dModel][kvHeads · dModel / heads]. */
  wv: F32;
  /** query heads; ≥ 1, a divisor of dModel; default 1. */
  heads?: number;
  /** key/value heads (grouped-query attention; 1 = multi-query); ≥ 1, a divisor of heads; default heads. */
  kvHeads?: number;
  /** how positions enter (default { type: 'none' }). */
  encoding?: SelfAttentionEncoding;
  /** mask the keys after each query; default false. */
  causal?: boolean;
  /** return the softmax weights [heads][length][length]; default true. */
  returnWeights?: boolean;
  /** a factor per query: Float32Array [queries], or a function of the query's absolute position (Llama 4, Qwen 1 logn). */
  queryScale?: QueryScale;
  /** chunked local attention (Llama 4 attention_chunk_size): a query sees the keys of its own chunk; 0 = none; ≥ 0; default 0. */
  chunk?: number;
  /** sliding window (HF sliding_window): a query at p sees keys j with |p − j| < window; 0 = none; ≥ 0; default 0. */
  window?: number;
}
export interface AttentionApi {
  attention<O extends F32 | undefined = undefined>(
    opts: AttentionOptions & { out?: O } & { returnWeights: true },
  ): AttentionResult<Float32Array, Returned<O, Float32Array>>;
  attention<O extends F32 | undefined = undefined>(
    opts: AttentionOptions & { out?: O },
  ): AttentionResult<Float32Array | null, Returned<O, Float32Array>>;
  /** out[m][n] = a[m][k] · b[k][n] */
  matmul<O extends F32 | undefined = undefined>(
    a: F32,
    b: F32,
    opts: {
      /** rows of a; ≥ 1. */
      m: number;
      /** columns of a, rows of b; ≥ 1. */
      k: number;
      /** columns of b; ≥ 1. */
      n: number;
      /** a buffer the result is written into (and returned). */
      out?: O;
    },
  ): Returned<O, Float32Array>;
  selfAttention(opts: SelfAttentionOptions): SelfAttentionResult;
}
export interface KvCacheOptions {
  /** query heads; ≥ 1; default 1. */
  heads?: number;
  /** key/value heads stored (grouped-query attention); ≥ 1, a divisor of heads; default heads. */
  kvHeads?: number;
  /** head size of q and k; ≥ 1. */
  dim: number;
  /** head size of v; ≥ 1; default dim. */
  dimV?: number;
  /** the most tokens the cache holds; appending past it throws (E_RANGE); ≥ 1, ≤ 2^28. */
  capacity: number;
  /** how positions enter (default { type: 'none' }). */
  encoding?: KvCacheEncoding;
  /** sliding window (Mistral): a query sees only the window newest keys up to itself; 0 = none; ≥ 0; default 0. */
  window?: number;
  /** the logit scale; ≥ -3e+38, ≤ 3e+38; default 1/sqrt(dim) (1 for T5). */
  scale?: number;
  /** chunked local attention over the true positions, as in attention; 0 = none; ≥ 0; default 0. */
  chunk?: number;
  /** the factor of each query as a function of its position (attend may pass a Float32Array instead). */
  queryScale?: (position: number) => number;
}
export interface KvCacheApi {
  kvCache(opts: KvCacheOptions): KvCache;
}
export interface TrainOptions {
  /** the task; default 'copy'. */
  task?: LabTask;
  /** the positional method; default 'rope'. */
  method?: LabMethod;
  /** the training length; ≥ 8, ≤ 512; default 32. */
  length?: number;
  /** optimiser steps; ≥ 1, ≤ 1000000; default 300. */
  steps?: number;
  /** the seed of the initial weights and the training data; ≥ 0, ≤ 2^31−1; default 0. */
  seed?: number;
  /** the model width; ≥ 4, ≤ 256; default 32. */
  dim?: number;
  /** heads; ≥ 1, ≤ 16, a divisor of dim leaving an even head width; default 4. */
  heads?: number;
  /** layers; ≥ 1, ≤ 4; default 2. */
  layers?: number;
  /** the feed-forward width; ≥ 1, ≤ 1024; default 64. */
  hidden?: number;
  /** sequences per step; ≥ 1, ≤ 256; default 16. */
  batch?: number;
  /** the task's parameter: copy's offset, periodic's longest period, ngram's order; copy 1 … length − 1, periodic 2 … min(16, ceil(length/2) − 1), ngram 2 … 3; default copy 1, periodic 6, ngram 3 (absent for first). */
  k?: number;
  /** the AdamW learning rate; > 0, ≤ 1; default 0.003. */
  lr?: number;
  /** the AdamW weight decay; ≥ 0, ≤ 1; default 0.01. */
  weightDecay?: number;
  /** the gradient norm clip; > 0, ≤ 1000000; default 1. */
  clip?: number;
  /** AdamW's beta1; ≥ 0, < 1; default 0.9. */
  beta1?: number;
  /** AdamW's beta2; ≥ 0, < 1; default 0.99. */
  beta2?: number;
  /** AdamW's epsilon; > 0, ≤ 1; default 1e-8. */
  eps?: number;
  /** steps between onProgress calls; ≥ 1, ≤ 1000000; default ceil(steps / 50). */
  progressEvery?: number;
}
export interface EvaluateOptions {
  /** the lengths scored; 1 to 64 lengths, each ≤ 1024; default [1, 2, 4, 8] × the training length. */
  lengths?: number[];
  /** sequences per length; ≥ 1, ≤ 4096; default 64. */
  count?: number;
  /** the evaluation data seed; ≥ 0, ≤ 2^31−1; default 1. */
  seed?: number;
  /** RoPE scaling at evaluation (method 'rope' only); default 'none'. */
  scaling?: 'none' | 'linear' | 'ntk' | 'yarn';
  /** the scaling factor (scaling other than 'none' only); ≥ 1, ≤ 1024; default length / the training length. */
  factor?: number;
  /** throw (E_RANGE) instead of null for a learned model past its table; default false. */
  strict?: boolean;
}
export interface TrainApi {
  /** Load the lab's trainer wasm (train, evaluate, attentionMap and loadModel need it); resolves to the API. */
  loadLab(opts?: {
    /** the lab's module (bytes, a compiled WebAssembly.Module or a URL) instead of the package's file. */
    wasm?: ArrayBuffer | ArrayBufferView | WasmModuleLike | UrlLike | string;
  }): Promise<Posenc>;
  readonly labLoaded: boolean;
  /** Train one model; onProgress is called every progressEvery steps, and returning false from it stops training. */
  train(
    opts?: TrainOptions,
    onProgress?: (p: TrainProgress) => boolean | void,
  ): { model: LabModel; losses: Float32Array };
  evaluate(model: LabModel, opts?: EvaluateOptions): Evaluation;
  /** The sequences evaluate scores at `length`: tokens and targets [count][length] (-1: not scored). */
  labSequences(
    model: LabModel,
    opts?: {
      /** the sequence length; the task's shortest … 1024 (learned: the training length); default the training length. */
      length?: number;
      /** sequences; ≥ 1, ≤ 4096; default 1. */
      count?: number;
      /** the evaluation data seed; ≥ 0, ≤ 2^31−1; default 1. */
      seed?: number;
    },
  ): { tokens: Int32Array; targets: Int32Array; length: number; count: number };
  attentionMap(
    model: LabModel,
    opts?: {
      /** the input length; ≤ 512, ≥ the task's shortest (learned: ≤ the training length); default the training length. */
      length?: number;
      /** the layer; ≥ 0, < layers; default 0. */
      layer?: number;
      /** the evaluation data seed; ≥ 0, ≤ 2^31−1; default 1. */
      seed?: number;
      /** RoPE scaling at evaluation (method 'rope' only); default 'none'. */
      scaling?: 'none' | 'linear' | 'ntk' | 'yarn';
      /** the scaling factor (scaling other than 'none' only); ≥ 1, ≤ 1024; default length / the training length. */
      factor?: number;
    },
  ): { weights: Float32Array; tokens: Int32Array; heads: number; length: number };
  positionTable(model: LabModel): Float32Array;
  saveModel(model: LabModel): string;
  loadModel(text: string | object): LabModel;
}
export interface ConfigApi {
  /** The positional scheme of one layer of a Hugging Face config.json (parsed). */
  fromConfig(
    config: object,
    opts?: {
      /** the layer whose scheme is returned; ≥ 0, < the number of layers (else ≤ 2^20); default 0. */
      layer?: number;
      /** the decoder stack of T5, Whisper, BART, mBART; default false. */
      decoder?: boolean;
      /** read a model_type fromConfig does not map as this mapped one (recorded in notes); without it an unmapped model_type is refused. */
      as?: string;
      /** a dual-tower config's (CLIP, SigLIP) text_config or vision_config; default 'text' (a vision config: its own tower). */
      tower?: 'text' | 'vision';
    },
  ): ModelSpec;
}
export interface Posenc
  extends SinusoidalApi,
    RopeApi,
    RelativeApi,
    LearnedApi,
    AttentionApi,
    KvCacheApi,
    TrainApi,
    ConfigApi {}
// </generated: family apis>

// ---- robust: the API functions as named exports (js/index.js). Each calls the instance the
// most recent init() resolved to; before any init() has resolved it throws a PosencError
// (E_MISSING) saying to await init(). See docs/errors.md.
// <generated: named exports> by tools/gen_decls.js from the declarations (families/NAME/decl.js)
export declare const alloc: Posenc['alloc'];
export declare const loadLab: Posenc['loadLab'];
export declare const sinusoidal: Posenc['sinusoidal'];
export declare const sinusoidalFrequencies: Posenc['sinusoidalFrequencies'];
export declare const sinusoidal2d: Posenc['sinusoidal2d'];
export declare const similarity: Posenc['similarity'];
export declare const ropeFrequencies: Posenc['ropeFrequencies'];
export declare const ropeCache: Posenc['ropeCache'];
export declare const applyRope: Posenc['applyRope'];
export declare const ropeDecay: Posenc['ropeDecay'];
export declare const alibiSlopes: Posenc['alibiSlopes'];
export declare const alibiBias: Posenc['alibiBias'];
export declare const t5Buckets: Posenc['t5Buckets'];
export declare const t5Bias: Posenc['t5Bias'];
export declare const shawIndices: Posenc['shawIndices'];
export declare const xlPositions: Posenc['xlPositions'];
export declare const relShift: Posenc['relShift'];
export declare const xlScores: Posenc['xlScores'];
export declare const learnedInit: Posenc['learnedInit'];
export declare const gather: Posenc['gather'];
export declare const addTo: Posenc['addTo'];
export declare const concat: Posenc['concat'];
export declare const attention: Posenc['attention'];
export declare const matmul: Posenc['matmul'];
export declare const selfAttention: Posenc['selfAttention'];
export declare const kvCache: Posenc['kvCache'];
export declare const train: Posenc['train'];
export declare const evaluate: Posenc['evaluate'];
export declare const labSequences: Posenc['labSequences'];
export declare const attentionMap: Posenc['attentionMap'];
export declare const positionTable: Posenc['positionTable'];
export declare const saveModel: Posenc['saveModel'];
export declare const loadModel: Posenc['loadModel'];
export declare const fromConfig: Posenc['fromConfig'];
// </generated: named exports>
