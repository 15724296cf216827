// Fingerprints of the files an engine reads (weights, networks, realization probabilities), so
// that a run resumed after such a file changed in place is refused like any other change of
// settings (datagen's header, a match's state).
#pragma once

#include <string>

namespace matches {

// "name (fnv1a <16 hex digits>)" of a file an engine reads (a name ending in .json or .nnue
// that is a regular file), the name without its directory; "nnue" (the compiled-in net) with
// its net's checksum the same way; any other name (a preset such as "full", or nothing)
// stands for itself.
std::string file_fingerprint(const std::string& name);

}  // namespace matches
