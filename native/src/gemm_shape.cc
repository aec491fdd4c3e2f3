#include "gemm_shape.h"

#include <climits>
#include <cmath>
#include <string>

#include "errors.h"

namespace gpulab {

namespace {

int Dimension(const OpArgs& args, const char* name) {
  const double v = args.number(name);
  if (!(v >= 1) || std::floor(v) != v) {
    throw NativeError("INVALID_ARGUMENT", std::string("Expected a positive integer for `") + name + "` of `" + args.op +
                                              "` but received " + std::to_string(v));
  }
  if (v > INT_MAX) {
    throw NativeError("SIZE_UNSUPPORTED", std::string("Expected at most ") + std::to_string(INT_MAX) + " for `" + name +
                                              "` of `" + args.op + "` but received " + std::to_string(v));
  }
  return static_cast<int>(v);
}

void ExpectLength(const OpArgs& args, const Storage& s, const char* name, size_t want, const char* formula) {
  if (s.length != want) {
    throw NativeError("LENGTH_MISMATCH", "Expected `" + std::string(name) + "` to hold " + formula + " = " +
                                             std::to_string(want) + " elements but it holds " + std::to_string(s.length) +
                                             " (operation `" + args.op + "`)");
  }
}

}  // namespace

GemmShape GemmShapeOf(const OpArgs& args, const Storage& a, const Storage& b, const Storage& out) {
  const GemmShape g{Dimension(args, "m"), Dimension(args, "n"), Dimension(args, "k")};
  const size_t m = g.m, n = g.n, k = g.k;
  ExpectLength(args, a, "a", m * k, "m·k");
  ExpectLength(args, b, "b", k * n, "k·n");
  ExpectLength(args, out, "out", m * n, "m·n");
  return g;
}

}  // namespace gpulab
