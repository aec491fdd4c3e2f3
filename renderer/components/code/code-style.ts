// How C++ and CUDA are coloured, in one place for the two views of a kernel: the read-only code blocks
// (highlight.ts) and the playground's editor (editor-setup.ts). Both read the source with one grammar, @lezer/cpp;
// this maps its highlight tags to the app's kinds of token, each coloured by a CSS token of the theme.
import { tags } from '@lezer/highlight';
import type { Tag } from '@lezer/highlight';

export type TokenKind = 'plain' | 'comment' | 'string' | 'preprocessor' | 'number' | 'keyword' | 'type' | 'cuda';

export const CODE_TAGS: readonly { kind: Exclude<TokenKind, 'plain' | 'cuda'>; tags: Tag[] }[] = [
  { kind: 'comment', tags: [tags.lineComment, tags.blockComment, tags.comment] },
  { kind: 'string', tags: [tags.string, tags.character, tags.special(tags.string)] },
  { kind: 'preprocessor', tags: [tags.processingInstruction, tags.meta, tags.special(tags.name)] },
  { kind: 'number', tags: [tags.number, tags.bool, tags.null] },
  { kind: 'keyword', tags: [tags.definitionKeyword, tags.modifier, tags.controlKeyword, tags.operatorKeyword, tags.self, tags.keyword] },
  { kind: 'type', tags: [tags.typeName, tags.standard(tags.typeName)] },
];

// CUDA's own words, which a C++ grammar reads as plain names; coloured apart, never inside a comment or a string.
export const CUDA_WORDS =
  /\b(?:__global__|__device__|__host__|__shared__|__constant__|__restrict__|__forceinline__|__launch_bounds__|__syncthreads|__syncwarp|__shfl_down_sync|__shfl_xor_sync|__ldg|__fmaf_rn|__expf|threadIdx|blockIdx|blockDim|gridDim|warpSize|atomicAdd)\b/g;
