#!/usr/bin/env bash
# The layout's rules, checked: floors matches/ -> loa/ -> common/ (and inside common/: variant/ ->
# mcts/, solver/ -> search/), includes and links pointing down only; files opened through the one
# file layer only. Fails naming every offence.
#   layering.sh SOURCE_DIR
set -uo pipefail
root="${1:?usage: layering.sh SOURCE_DIR}"
status=0
upward() {  # upward FLOOR PATTERN WHAT
  local hits
  hits=$(grep -rnE "$2" "$root/$1" --include='*.hpp' --include='*.cpp' --include='*.h' --include=CMakeLists.txt || true)
  if [ -n "$hits" ]; then
    echo "$1/ $3:"
    echo "$hits"
    status=1
  fi
}
upward loa '#include [<"]matches/' "includes the runner (the engine does not depend on it)"
upward loa 'matches_[a-z]+' "links the runner (the engine does not depend on it)"
upward common '#include [<"](loa|matches)/' "includes a game or the runner (the core knows no LOA type)"
upward common '(loa|matches)_[a-z]+' "links a game or the runner (the core knows no LOA type)"
# Inside the core: search/ is the floor; mcts/ and solver/ stand on it, side by side; the variant
# layer, which names either searcher, stands on all three.
upward common/search '#include [<"]common/(mcts|solver|variant)/' "includes a floor above it (search/ is the core's floor)"
upward common/mcts '#include [<"]common/(solver|variant)/' "includes the solver or the variant layer"
upward common/solver '#include [<"]common/(mcts|variant)/' "includes MCTS or the variant layer"
# One file layer (common/files.hpp, and common/file_lock.cpp's locks): no code outside it opens,
# creates, cuts or renames a file by hand, so that a reader that blocks on a FIFO or grows
# without a cap, or a writer that replaces a file it did not make, cannot be written again.
file_io='std::(i|o)?fstream|std::filebuf|\b(fopen|fdopen|freopen|mkstemp|mkostemp|creat|openat|truncate|ftruncate|rename|renameat|link|linkat)\(|[^_a-zA-Z.>]open\(|resize_file'
hits=$(grep -rnE "$file_io" "$root/common" "$root/loa" "$root/matches" "$root/bench" --include='*.hpp' --include='*.cpp' \
         | grep -v "^$root/common/files.cpp:\|^$root/common/file_lock.cpp:" | grep -vE '^[^:]+:[0-9]+:\s*//' || true)
if [ -n "$hits" ]; then
  echo "a file opened outside the file layer (common/files.hpp):"
  echo "$hits"
  status=1
fi
[ $status -eq 0 ] && echo "layering: every include and link points down; every file goes through common/files.hpp"
exit $status
