# Sourced by the build scripts: sets `launcher` to the cmake arguments that put ccache in front
# of the compilers (empty when ccache is not installed), defines `generator_for` (below), and the ccache settings that let a
# fresh clone anywhere hit what an earlier build cached: paths under the clone are hashed
# relative to it, and the working directory is not hashed (debug information may then name the
# directory of the clone that filled the cache). The cache's size is ccache's own setting.
launcher=()
if command -v ccache > /dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="${root:?}"
  export CCACHE_NOHASHDIR=1
fi

# generator_for DIR: sets `generator` to `-G Ninja` when ninja is there (setup.sh installs it)
# and DIR is a new build directory or one made with Ninja. Ninja compiles a target's files
# while the libraries it links are still compiling, where Make waits for each library (with
# Make, an empty cache kept 1.4 of the 2 cores busy on average). A directory made with Make
# keeps it: cmake refuses to change the generator of a build directory.
generator_for() {
  generator=()
  if command -v ninja > /dev/null && { [[ ! -f "$1/CMakeCache.txt" ]] || grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$1/CMakeCache.txt"; }; then
    generator=(-G Ninja)
  fi
}
