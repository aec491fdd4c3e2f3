// Elementwise f32 kernels for a WebGPU device: out = a + b, out = a · b, out = exp(x) (the elementwise break-even lab;
// the CUDA versions are shaders/cuda/elementwise.cu).
//
// One invocation an element, with no vector loads: a WebGPU buffer binding may be any multiple of 4 bytes long and is
// bound in pieces (below), and each element read once and written once moves 12 bytes for add and mul, 8 for exp.
//
// The compute host binds each array in pieces of at most the adapter's maxStorageBufferBindingSize (128 MiB on
// lavapipe), one dispatch a piece, so that 10⁸ elements fit; a dispatch has at most 65 535 workgroups along x, so the
// grid is two-dimensional and an invocation's element is x + y · (workgroups along x · WORKGROUP). arrayLength() is the
// piece's length: invocations past it do nothing.
//
// WORKGROUP is set when the pipeline is made: 256, or the adapter's limit where that is lower (Dawn's compatibility
// mode on OpenGL ES allows 128 unless more is asked for).
override WORKGROUP: u32 = 256;

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

fn element(global: vec3u, groups: vec3u) -> u32 {
  return global.x + global.y * groups.x * WORKGROUP;
}

@compute @workgroup_size(WORKGROUP)
fn add(@builtin(global_invocation_id) global: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let i = element(global, groups);
  if (i < arrayLength(&out)) {
    out[i] = a[i] + b[i];
  }
}

@compute @workgroup_size(WORKGROUP)
fn mul(@builtin(global_invocation_id) global: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let i = element(global, groups);
  if (i < arrayLength(&out)) {
    out[i] = a[i] * b[i];
  }
}

// WGSL's exp is accurate to 3 + 2·|x| ULP: at most 11 ULP (about 7e-7 relative) over the lab's inputs in [-4, 4),
// well inside the 1e-5 tolerance.
@compute @workgroup_size(WORKGROUP)
fn exp_kernel(@builtin(global_invocation_id) global: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let i = element(global, groups);
  if (i < arrayLength(&out)) {
    out[i] = exp(a[i]);
  }
}
