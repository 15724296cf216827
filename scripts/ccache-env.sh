# Sourced by the build scripts: sets `launcher` to the cmake arguments that put ccache in front
# of the compilers (empty when ccache is not installed), and the ccache settings that let a
# fresh clone anywhere hit what an earlier build cached: paths under the clone are hashed
# relative to it, the working directory is not hashed (debug information may name the earlier
# clone's directory), and precompiled headers are cacheable.
launcher=()
if command -v ccache > /dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="${root:?}"
  export CCACHE_NOHASHDIR=1
  export CCACHE_SLOPPINESS="pch_defines,time_macros,include_file_mtime,include_file_ctime"
  export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-5G}"
fi
