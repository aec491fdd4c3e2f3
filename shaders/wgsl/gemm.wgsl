// C = A·B for row-major M×K and K×N matrices on a WebGPU device (the matmul, matmul-breakeven, timing-pitfalls and
// dtypes labs; the CUDA versions are shaders/cuda/sgemm.cu). Two kernels, as in the course:
//
//   naive: one invocation per element of C, each reading a row of A and a column of B straight from the storage
//      buffers: two loads for every multiply-add.
//   tiled: a workgroup of 256 invocations computes a 64×64 tile of C. It stages 64×16 slabs of A and 16×64 slabs of
//      B in workgroup memory, so each value fetched from a storage buffer serves 64 multiply-adds, and each invocation
//      keeps a 4×4 piece of C in registers, so each value read from workgroup memory serves 4. (The CUDA kernel's
//      128×128 tiles with 8×8 per thread need 32 KiB of slabs to double-buffer; WebGPU guarantees 16 KiB of
//      workgroup memory, and 8 KiB hold these.)
//
// Element is f32 here. For f16 (where the adapter has `shader-f16`) the compute host puts `enable f16;` in front and
// reads Element as f16 (host/webgpu/wgsl.ts): the matrices are stored and staged in f16, and every product and sum is
// taken in f32 (each f16 widened exactly), as a GPU's f16 GEMM accumulates in f32; C is rounded to f16 once.
//
// A storage binding holds at most the adapter's maxStorageBufferBindingSize (128 MiB on lavapipe: a 5793² f32
// matrix), so the compute host may bind A and C in bands of rows and B in bands of K, one dispatch per pair of bands
// (host/webgpu/gemm.ts): `dims` gives the band's rows (m), N, A's full row length (k), the first column of A that
// the band of B starts at (k_offset), the band's depth (k_count), and whether to add to C what an earlier band of K
// wrote (accumulate) rather than overwrite it.
alias Element = f32;

struct Dims {
  m: u32,
  n: u32,
  k: u32,
  k_offset: u32,
  k_count: u32,
  accumulate: u32,
}

@group(0) @binding(0) var<storage, read> a: array<Element>;
@group(0) @binding(1) var<storage, read> b: array<Element>;
@group(0) @binding(2) var<storage, read_write> c: array<Element>;
@group(0) @binding(3) var<uniform> dims: Dims;

fn store(row: u32, col: u32, sum: f32) {
  let at = row * dims.n + col;
  if (dims.accumulate != 0u) {
    c[at] = Element(f32(c[at]) + sum);
  } else {
    c[at] = Element(sum);
  }
}

// Workgroups of 16×16 invocations, as one dimension of 256 (WebGPU guarantees 256 along x, only 64 along y); the grid
// is N/16 × M/16 workgroups.
@compute @workgroup_size(256)
fn naive(@builtin(workgroup_id) group: vec3u, @builtin(local_invocation_index) local: u32) {
  let row = group.y * 16u + local / 16u;
  let col = group.x * 16u + local % 16u;
  if (row >= dims.m || col >= dims.n) {
    return;
  }
  var sum = 0.0;
  for (var i = 0u; i < dims.k_count; i++) {
    sum += f32(a[row * dims.k + dims.k_offset + i]) * f32(b[i * dims.n + col]);
  }
  store(row, col, sum);
}

const TILE = 64u;
const DEPTH = 16u;

// The slabs, k-major: slab_a[kk][r] is A's row r of the tile at depth kk, slab_b[kk][col] B's.
var<workgroup> slab_a: array<array<Element, 64>, 16>;
var<workgroup> slab_b: array<array<Element, 64>, 16>;

// The grid is N/64 × M/64 workgroups. Invocation (tx, ty) of the 16×16 computes rows ty·4 … ty·4+3 and columns
// tx·4 … tx·4+3 of its tile.
@compute @workgroup_size(256)
fn tiled(@builtin(workgroup_id) group: vec3u, @builtin(local_invocation_index) local: u32) {
  let row0 = group.y * TILE;
  let col0 = group.x * TILE;
  let tx = local % 16u;
  let ty = local / 16u;
  // Row i of the invocation's 4×4 piece of C.
  var acc0 = vec4f(0.0);
  var acc1 = vec4f(0.0);
  var acc2 = vec4f(0.0);
  var acc3 = vec4f(0.0);
  for (var k0 = 0u; k0 < dims.k_count; k0 += DEPTH) {
    // 1024 values of each slab, 4 per invocation; outside the matrices, zeros.
    for (var l = 0u; l < 4u; l++) {
      let at = local + l * 256u;
      let ra = at / DEPTH;
      let ka = at % DEPTH;
      var va = Element(0.0);
      if (row0 + ra < dims.m && k0 + ka < dims.k_count) {
        va = a[(row0 + ra) * dims.k + dims.k_offset + k0 + ka];
      }
      slab_a[ka][ra] = va;
      let kb = at / TILE;
      let cb = at % TILE;
      var vb = Element(0.0);
      if (k0 + kb < dims.k_count && col0 + cb < dims.n) {
        vb = b[(k0 + kb) * dims.n + col0 + cb];
      }
      slab_b[kb][cb] = vb;
    }
    workgroupBarrier();
    for (var kk = 0u; kk < DEPTH; kk++) {
      let r = ty * 4u;
      let s = tx * 4u;
      let bs = vec4f(f32(slab_b[kk][s]), f32(slab_b[kk][s + 1u]), f32(slab_b[kk][s + 2u]), f32(slab_b[kk][s + 3u]));
      acc0 += f32(slab_a[kk][r]) * bs;
      acc1 += f32(slab_a[kk][r + 1u]) * bs;
      acc2 += f32(slab_a[kk][r + 2u]) * bs;
      acc3 += f32(slab_a[kk][r + 3u]) * bs;
    }
    workgroupBarrier();
  }
  let acc = array<vec4f, 4>(acc0, acc1, acc2, acc3);
  for (var i = 0u; i < 4u; i++) {
    for (var j = 0u; j < 4u; j++) {
      let row = row0 + ty * 4u + i;
      let col = col0 + tx * 4u + j;
      if (row < dims.m && col < dims.n) {
        store(row, col, acc[i][j]);
      }
    }
  }
}
