// A small lexer for the C++ and CUDA the labs show: comments, strings, preprocessor lines, numbers, keywords, types
// and CUDA's own words, line by line. The UI renders the tokens as text in spans, so no source is ever parsed as
// HTML (no innerHTML, nothing for the page's Content Security Policy to allow).

export type TokenKind = 'plain' | 'comment' | 'string' | 'preprocessor' | 'number' | 'keyword' | 'type' | 'cuda';

export interface Token {
  kind: TokenKind;
  text: string;
}

const KEYWORDS = new Set(
  'if else for while do switch case default break continue return goto struct class union enum namespace using template typename typedef static const constexpr inline extern volatile auto sizeof alignof new delete public private protected virtual override nullptr true false this operator noexcept static_cast reinterpret_cast const_cast dynamic_cast'.split(
    ' ',
  ),
);
const TYPES = new Set(
  'void bool char short int long float double unsigned signed size_t ptrdiff_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t half __half __nv_bfloat16 float2 float4 double2 int2 int4 dim3 cudaError_t cudaStream_t cudaEvent_t'.split(
    ' ',
  ),
);
const CUDA = new Set(
  '__global__ __device__ __host__ __shared__ __constant__ __restrict__ __forceinline__ __launch_bounds__ __syncthreads __syncwarp __ldg __fmaf_rn __expf threadIdx blockIdx blockDim gridDim warpSize atomicAdd'.split(' '),
);

// One pass over a line; `inComment` carries an open /* … */ from the line before.
function lexLine(line: string, inComment: boolean): { tokens: Token[]; inComment: boolean } {
  const tokens: Token[] = [];
  const push = (kind: TokenKind, text: string): void => {
    const last = tokens[tokens.length - 1];
    if (last && last.kind === kind) last.text += text;
    else tokens.push({ kind, text });
  };
  let i = 0;
  if (inComment) {
    const end = line.indexOf('*/');
    if (end === -1) return { tokens: [{ kind: 'comment', text: line }], inComment: true };
    push('comment', line.slice(0, end + 2));
    i = end + 2;
  }
  if (line.slice(i).trimStart().startsWith('#')) {
    push('preprocessor', line.slice(i));
    return { tokens, inComment: false };
  }
  while (i < line.length) {
    const rest = line.slice(i);
    if (rest.startsWith('//')) {
      push('comment', rest);
      break;
    }
    if (rest.startsWith('/*')) {
      const end = rest.indexOf('*/', 2);
      if (end === -1) {
        push('comment', rest);
        return { tokens, inComment: true };
      }
      push('comment', rest.slice(0, end + 2));
      i += end + 2;
      continue;
    }
    const quote = rest[0];
    if (quote === '"' || quote === "'") {
      let j = 1;
      while (j < rest.length && rest[j] !== quote) j += rest[j] === '\\' ? 2 : 1;
      push('string', rest.slice(0, j + 1));
      i += j + 1;
      continue;
    }
    const number = /^(0x[0-9a-fA-F]+|\d+\.?\d*(e[+-]?\d+)?)[uUlLfF]*/.exec(rest);
    if (number && !/[A-Za-z_]/.test(line[i - 1] ?? '')) {
      push('number', number[0]);
      i += number[0].length;
      continue;
    }
    const word = /^[A-Za-z_]\w*/.exec(rest);
    if (word) {
      const w = word[0];
      push(CUDA.has(w) ? 'cuda' : TYPES.has(w) ? 'type' : KEYWORDS.has(w) ? 'keyword' : 'plain', w);
      i += w.length;
      continue;
    }
    push('plain', rest[0] ?? '');
    i += 1;
  }
  return { tokens, inComment: false };
}

export function highlightLines(source: string): Token[][] {
  const lines: Token[][] = [];
  let inComment = false;
  for (const line of source.replace(/\r\n?/g, '\n').split('\n')) {
    const lexed = lexLine(line, inComment);
    lines.push(lexed.tokens);
    inComment = lexed.inComment;
  }
  return lines;
}
