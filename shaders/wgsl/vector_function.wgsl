// z = a·x² + b·y + c over f32 vectors on a WebGPU device (the vector-function lab; the CUDA versions are
// shaders/cuda/vector_function.cu and run in f64). WGSL has no 64-bit float type, so the lab's f64 series are waived
// on WebGPU and these f32 kernels run in their place, verified against the same float64 reference.
//
//   unfused: three passes, as a chain of array operations runs them (t = a·x·x; t = t + b·y; z = t + c).
//      Bytes: 8 + 12 + 8 = 28 per element.
//   fused: one kernel. Bytes: read x and y, write z = 12 per element.
//
// Arrays are bound in pieces and the grid is two-dimensional, as in elementwise.wgsl; a, b and c come in a uniform
// buffer, as a CUDA kernel takes them as arguments.
override WORKGROUP: u32 = 256;

struct Coefficients {
  a: f32,
  b: f32,
  c: f32,
}

@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read> y: array<f32>;
@group(0) @binding(2) var<storage, read_write> z: array<f32>;
@group(0) @binding(3) var<uniform> k: Coefficients;
// The unfused passes' intermediate vector.
@group(0) @binding(4) var<storage, read_write> t: array<f32>;

fn element(global: vec3u, groups: vec3u) -> u32 {
  return global.x + global.y * groups.x * WORKGROUP;
}

@compute @workgroup_size(WORKGROUP)
fn fused(@builtin(global_invocation_id) global: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let i = element(global, groups);
  if (i < arrayLength(&z)) {
    let xi = x[i];
    z[i] = k.a * xi * xi + k.b * y[i] + k.c;
  }
}

// Pass 1 of the unfused version: t = a·x·x.
@compute @workgroup_size(WORKGROUP)
fn scaled_square(@builtin(global_invocation_id) global: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let i = element(global, groups);
  if (i < arrayLength(&t)) {
    t[i] = k.a * x[i] * x[i];
  }
}

// Pass 2: t = t + b·y.
@compute @workgroup_size(WORKGROUP)
fn add_scaled(@builtin(global_invocation_id) global: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let i = element(global, groups);
  if (i < arrayLength(&t)) {
    t[i] = t[i] + k.b * y[i];
  }
}

// Pass 3: z = t + c.
@compute @workgroup_size(WORKGROUP)
fn add_constant(@builtin(global_invocation_id) global: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let i = element(global, groups);
  if (i < arrayLength(&z)) {
    z[i] = t[i] + k.c;
  }
}
