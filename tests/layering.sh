#!/usr/bin/env bash
# The layout's rules, checked: floors matches/ -> loa/ -> common/, includes and links pointing
# down only. Fails naming every include or link that points up.
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
[ $status -eq 0 ] && echo "layering: every include and link points down"
exit $status
