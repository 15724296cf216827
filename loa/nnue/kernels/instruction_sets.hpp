// The kernel sets of kernels.hpp, one instruction set a file in this folder. A file whose
// kernels use instructions beyond the build's -march compiles only its own functions for them,
// in a target region after its includes (LOA_TARGET_BEGIN/END below), never the whole file
// with -mavx2: an inline function of a shared header (std::clamp, a vector's member) compiled
// in such a file could be emitted with AVX2 instructions, and the linker may keep that copy for
// the whole program, which would then fail on a CPU without AVX2. So the kernels call no
// templates or inline functions of other headers (intrinsics only), define their functions in
// an anonymous namespace, and take plain pointers (kernels.hpp's HiddenLayerInput).
#pragma once

#include "loa/nnue/kernels.hpp"
#include "loa/nnue/network.hpp"  // the sizes and fixed points (constants only)

// A region of functions compiled for more instructions than the build's -march: GCC's target
// pragma, or clang's (which ignores GCC's) attribute pragma.
#define LOA_PRAGMA(text) _Pragma(#text)
#if defined(__clang__)
#define LOA_TARGET_BEGIN(features) LOA_PRAGMA(clang attribute push(__attribute__((target(features))), apply_to = function))
#define LOA_TARGET_END() LOA_PRAGMA(clang attribute pop)
#else
#define LOA_TARGET_BEGIN(features) LOA_PRAGMA(GCC push_options) LOA_PRAGMA(GCC target(features))
#define LOA_TARGET_END() LOA_PRAGMA(GCC pop_options)
#endif

namespace loa::nnue::kernels {

// Each returns its kernel set, or nullptr when this build has none (not an x86-64 compiler).
const KernelSet* scalar();
const KernelSet* sse41();
const KernelSet* avx2();
const KernelSet* avx512();       // AVX-512 F and BW
const KernelSet* avx512_vnni();  // and VNNI's byte dot product

// Whether this CPU (and its operating system) can run the set of that name.
bool cpu_runs(const KernelSet& set);

}  // namespace loa::nnue::kernels
