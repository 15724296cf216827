"""The CodinGame bot's minifier (scripts/codingame/minify.py): a program means the same after
it. Each case is a small C++ program with the constructs the shrinking could break (raw
strings, digit separators, operators that would merge, macros that make pragma text, names
the standard library spells); it is compiled and run before and after, and the outputs must
agree, while the shrunk text is shorter and has the project's names renamed."""
import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "codingame"))
import minify  # noqa: E402

PROGRAM = r'''
#include <cstdio>
#include <string>
#include <vector>
#define STRINGIZE(x) #x
#define SQUARE_OF_THREE (1 + 2) * (1 + 2)
#define LONG_BODY(total) do { total += 1; total += 2; total += 3; total += 4; total += 5; total += 6; total += 7; total += 8; \
    total += 9; total += 10; total += 11; total += 12; total += 13; total += 14; total += 15; total += 16; total += 17; \
    total += 18; total += 19; total += 20; } while (0)
#define PRAGMA(text) _Pragma(#text)
#define PUSH_TARGET(features) PRAGMA(GCC push_options) PRAGMA(GCC target(features))
#define POP_TARGET() PRAGMA(GCC pop_options)
#if defined(__x86_64__)
PUSH_TARGET("avx2")
static int doubled_with_avx2(int some_value) { return some_value * 2; }
POP_TARGET()
#else
static int doubled_with_avx2(int some_value) { return some_value * 2; }
#endif
namespace project_space {
struct Accumulator {
    long long running_total = 0;
    std::vector<int> history_of_values;
    void add_value(int v) { running_total += v; history_of_values.push_back(v); }
    std::size_t size() const { return history_of_values.size(); }  // a standard spelling
};
/* a block comment
   over lines */ constexpr long long thousand_million = 1'000'000'000LL;
}  // namespace project_space
int main() {
    using project_space::Accumulator;
    Accumulator acc;
    int a = 5, b = -3;
    acc.add_value(a - -b);      // minus minus must stay apart
    acc.add_value(a+ +b);       // plus plus
    int *pointer = &a;
    acc.add_value(a & *pointer);
    acc.add_value(b < -1 ? 1 : 0);
    acc.add_value(SQUARE_OF_THREE);   // an object-like macro starting with '(': 9
    acc.add_value(0x1E - 1);          // not the number 0x1E-1: 29
    long long many = 0;
    LONG_BODY(many);                  // a body over a line's length: 210
    acc.add_value(static_cast<int>(many));
    const char* raw = R"delim(quote " and // not a comment /* nor this */)delim";
    const std::string text = "slash // inside a string";
    const char quote = '\'';
    std::printf("%lld %zu %s %s %c %s %d %lld\n", acc.running_total, acc.size(), raw, text.c_str(), quote,
                STRINGIZE(kept as text), doubled_with_avx2(21), project_space::thousand_million / 1000);
    return 0;
}
'''


def compile_and_run(source, directory, name):
    path = os.path.join(directory, name + ".cpp")
    binary = os.path.join(directory, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(source)
    subprocess.run(["g++", "-std=gnu++17", "-Wall", "-Werror", "-o", binary, path], check=True, capture_output=True, text=True)
    return subprocess.run([binary], check=True, capture_output=True, text=True).stdout


class Minify(unittest.TestCase):
    def test_the_shrunk_program_prints_what_the_original_prints(self):
        outside = minify.identifiers_in(subprocess.run(
            ["g++", "-std=gnu++17", "-E", "-dD", "-x", "c++", "-"], input="#include <cstdio>\n#include <string>\n#include <vector>\n",
            capture_output=True, text=True, check=True).stdout)
        tokens, renamed = minify.rename(minify.tokenize(PROGRAM), outside)
        shrunk = minify.join(tokens)
        with tempfile.TemporaryDirectory() as d:
            expected = compile_and_run(PROGRAM, d, "original")
            try:
                got = compile_and_run(shrunk, d, "shrunk")
            except subprocess.CalledProcessError as e:
                self.fail(f"the shrunk program does not compile:\n{e.stderr}\n{shrunk}")
        self.assertEqual(got, expected)
        self.assertIn("258 7 quote", expected)  # 2 + 2 + 5 + 1 + 9 + 29 + 210, seven values: the cases ran
        self.assertLess(len(shrunk), len(PROGRAM) * 0.7)
        self.assertGreater(renamed, 5)
        for ours in ("running_total", "history_of_values", "add_value", "project_space"):
            self.assertNotIn(ours, shrunk)
        for kept in ("size", "push_back", "printf", "main", "GCC", "push_options", "avx2"):
            self.assertIn(kept, shrunk)

    def test_tokens_keep_literals_whole(self):
        kinds = minify.tokenize('x = R"(a "b" // c)" + u8"d\\"e" + \'\\\'\' + 1\'000;')
        texts = [t for _, t in kinds]
        self.assertIn('R"(a "b" // c)"', texts)
        self.assertIn('u8"d\\"e"', texts)
        self.assertIn("'\\''", texts)
        self.assertIn("1'000", texts)

    def test_an_unknown_character_is_refused(self):
        with self.assertRaises(ValueError):
            minify.tokenize("int x = 1 @ 2;")


if __name__ == "__main__":
    unittest.main()
