# Sourced by the build scripts: sets `launcher` to the cmake arguments that put ccache in front
# of the compilers (empty when ccache is not installed), and the ccache settings that let a
# fresh clone anywhere hit what an earlier build cached: paths under the clone are hashed
# relative to it, and the working directory is not hashed (debug information may then name the
# directory of the clone that filled the cache). The cache's size is ccache's own setting.
launcher=()
if command -v ccache > /dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="${root:?}"
  export CCACHE_NOHASHDIR=1
fi
