#!/usr/bin/env bash
# Trains the NNUE evaluation (docs/nnue.md) from datagen files: the reproducible entry point.
# Installs what the trainer needs, only what is missing (Debian's PyTorch, numpy and the
# threaded OpenBLAS), says which BLAS torch really loaded, then runs scripts/nnue/train.py with
# the arguments given, e.g.
#
#   scripts/train-net.sh --data data.txt --out net.nnue --seed 1
#   scripts/train-net.sh --help
#
# It uses /usr/bin/python3 on purpose: Debian's python3-torch is installed for the system Python,
# not for another python3 that may come first on PATH.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python=/usr/bin/python3
trainer="$here/nnue/train.py"
export PYTHONDONTWRITEBYTECODE=1  # no __pycache__ left in the source tree

for arg in "$@"; do
  case "$arg" in
    -h|--help) exec "$python" "$trainer" --help ;;  # needs neither torch nor the BLAS
  esac
done

# Only what is missing (scripts/setup.sh: the build's packages and the trainer's).
bash "$here/setup.sh" trainer

# Which BLAS a python process that imported torch has mapped (Debian picks libblas.so.3 through
# update-alternatives: OpenBLAS if it is there, else the slow reference BLAS).
blas="$("$python" - "$here/nnue" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
import train
report = train.blas_report()
print(("REFERENCE " if report["reference"] else "") + report["name"] + ": " + " ".join(report["paths"]))
EOF
)"
echo "train-net: torch's BLAS is ${blas#REFERENCE }"
if [[ "$blas" == REFERENCE* ]]; then
  echo "train-net: warning: that is the reference BLAS, many times slower than OpenBLAS;" \
       "see update-alternatives --display libblas.so.3-x86_64-linux-gnu" >&2
fi

exec "$python" "$trainer" "$@"
