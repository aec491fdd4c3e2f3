// CPU elementwise fp32: add (out = a + b), mul (out = a * b), exp (out = exp(x)); `empty`, the harness's own cost.
#pragma once

namespace gpulab {
void RegisterCpuElementwise();
}
