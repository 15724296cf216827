#include "loa/nnue/kernels.hpp"

#include <cstdlib>

#include "loa/error.hpp"
#include "loa/nnue/kernels/instruction_sets.hpp"

namespace loa::nnue {
namespace kernels {

bool cpu_runs(const KernelSet& set) {
#if defined(__x86_64__)
    // __builtin_cpu_supports also asks the operating system (XGETBV) whether it saves the
    // wider registers, so a flag the kernel cannot use is not taken for one it can.
    const std::string_view name = set.name;
    if (name == "sse4.1") return __builtin_cpu_supports("sse4.1");
    if (name == "avx2") return __builtin_cpu_supports("avx2");
    if (name == "avx512") return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
    if (name == "avx512vnni")
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512vnni");
#endif
    return &set == scalar();
}

}  // namespace kernels

std::vector<const KernelSet*> kernel_sets(bool runnable_only) {
    std::vector<const KernelSet*> sets;
    for (const KernelSet* set :
         {kernels::scalar(), kernels::sse41(), kernels::avx2(), kernels::avx512(), kernels::avx512_vnni()})
        if (set && (!runnable_only || kernels::cpu_runs(*set))) sets.push_back(set);
    return sets;
}

std::string kernel_names(bool runnable_only) {
    std::string names;
    for (const KernelSet* set : kernel_sets(runnable_only)) names += (names.empty() ? "" : ", ") + std::string(set->name);
    return names;
}

const KernelSet& kernel_set(std::string_view name) {
    for (const KernelSet* set : kernel_sets(false)) {
        if (set->name != name) continue;
        if (!kernels::cpu_runs(*set))
            throw InputError("the NNUE kernel '" + std::string(name) + "' needs instructions this CPU lacks (it runs: " +
                             kernel_names(true) + ")");
        return *set;
    }
    throw InputError("unknown NNUE kernel '" + std::string(name) + "' (this CPU runs: " + kernel_names(true) + ")");
}

const KernelSet& scalar_kernels() { return *kernels::scalar(); }

const KernelSet& active_kernels() {
    // Chosen once, before any evaluation (the first caller; a static's initialisation is
    // thread-safe), and never changed: every search of the process computes with the same code.
    static const KernelSet& chosen = []() -> const KernelSet& {
        if (const char* name = std::getenv("LOA_NNUE_KERNEL"); name && *name) return kernel_set(name);
        return *kernel_sets(true).back();
    }();
    return chosen;
}

}  // namespace loa::nnue
