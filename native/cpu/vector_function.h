// CPU vector function, fp64: z = a·x² + b·y + c, one fused pass (24 bytes moved per element: x, y read, z written).
#pragma once

namespace gpulab {
void RegisterCpuVectorFunction();
}
