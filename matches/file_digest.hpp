// Fingerprints of the files an engine reads (weights, networks, realization probabilities), so
// that a run resumed after such a file changed in place is refused like any other change of
// settings (datagen's header, a match's state).
#pragma once

#include <string>

namespace matches {

// "name (fnv1a <16 hex digits>)" of a regular file's content, the file's name without its
// directory; a name that is no file (a preset such as "full", or nothing) stands for itself.
std::string file_fingerprint(const std::string& name);

}  // namespace matches
