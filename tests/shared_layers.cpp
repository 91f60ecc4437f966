// The shared layers name no family (issue 26): the front ends (src/cli, src/serve), the pages
// (src/render, include/tansaku/render), the core, the search templates, the top-level
// CMakeLists.txt and the Python module's binding (python/) work from the registry's
// declarations only, so that a family is its folder plus a registry line. Every file there
// is read, comments included, for a name the registry
// knows (a family prefix, a builtin, an alias) or a family's folder, as a whole word where '-'
// and ':' belong to the word ("rotating-slide" is not "slide"; "sliding::pdb" and
// "peg:FILE" are their family's). Common words that are family names ("flip", "peg",
// "blocks", "perm") count too: a grep for a family's name must find nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tansaku/puzzles/registry.h"

namespace fs = std::filesystem;

namespace {

// The source tree: the parent of the shipped data directory.
const fs::path kSource = fs::path(TANSAKU_DATA_DIR).parent_path();

// The folders of src/ that are not a family's.
const std::set<std::string> kSharedFolders = {"cli", "serve", "render", "core", "registry", "graph", "pdb", "search"};

// The files that must name no family.
std::vector<fs::path> shared_files() {
  // The Python module's binding and package (python/) walk the registry too; its tests and
  // examples may name puzzles.
  std::vector<fs::path> files = {kSource / "CMakeLists.txt", kSource / "python/CMakeLists.txt", kSource / "python/module.cpp"};
  for (const char* dir : {"src/cli", "src/serve", "src/render", "src/core", "src/graph", "src/pdb", "src/search",
                          "include/tansaku/core", "include/tansaku/graph", "include/tansaku/search",
                          "include/tansaku/render", "include/tansaku/pdb", "python/tansaku", "python/backend"})
    for (const auto& e : fs::recursive_directory_iterator(kSource / dir))
      if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

struct Names {
  std::set<std::string> whole;     // a word equal to one of these names a family
  std::vector<std::string> heads;  // so does a word beginning with "HEAD:" ("sliding:4x4", "square_sum::")
};

Names family_names() {
  Names n;
  for (const auto& name : tansaku::puzzle_names()) n.whole.insert(lower(name));
  for (const auto& f : tansaku::families()) n.heads.push_back(lower(f.prefix) + ":");
  for (const auto& e : fs::directory_iterator(kSource / "src"))
    if (e.is_directory() && !kSharedFolders.count(e.path().filename().string())) {
      n.whole.insert(lower(e.path().filename().string()));
      n.heads.push_back(lower(e.path().filename().string()) + ":");
    }
  return n;
}

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == ':'; }

// The words of `line` that name a family.
std::vector<std::string> family_words(const std::string& line, const Names& names) {
  std::vector<std::string> found;
  for (std::size_t i = 0; i < line.size();) {
    if (!word_char(line[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < line.size() && word_char(line[j])) ++j;
    std::string word = line.substr(i, j - i);
    i = j;
    // Dashes and colons around a word are punctuation ("--", "peg:" ending a sentence).
    const auto a = word.find_first_not_of("-:");
    if (a == std::string::npos) continue;
    const std::string w = lower(word.substr(a, word.find_last_not_of("-:") - a + 1));
    const std::string with_colon = lower(word.substr(a));
    bool hit = names.whole.count(w) != 0;
    for (const auto& h : names.heads) hit = hit || with_colon.starts_with(h);
    if (hit) found.push_back(word);
  }
  return found;
}

}  // namespace

TEST(SharedLayers, TheScanFindsFamilyNames) {
  const Names names = family_names();
  using V = std::vector<std::string>;
  EXPECT_EQ(family_words("#include \"sliding/pdb.h\"", names), V{"sliding"});
  EXPECT_EQ(family_words("sliding::pdb::default_dir()", names), V{"sliding::pdb::default_dir"});
  EXPECT_EQ(family_words("(peg:FILE, --file, --batch)", names), V{"peg:FILE"});
  EXPECT_EQ(family_words("GLPK (peg's pagoda LPs)", names), V{"peg"});
  EXPECT_EQ(family_words("{\"puzzle\": \"8-puzzle\"}", names), V{"8-puzzle"});
  EXPECT_EQ(family_words("// Blocks SIGINT", names), V{"Blocks"});
  EXPECT_EQ(family_words("a perm: the", names), V{"perm:"});
  EXPECT_EQ(family_words("#include \"tansaku/puzzles/square_sum.h\"", names), V{"square_sum"});
  EXPECT_EQ(family_words("knights::tour_family()", names), V{"knights::tour_family"});
  EXPECT_EQ(family_words("--spill DIR, a sliding-window, flipped, pegs, permutation, graph", names), V{});
}

TEST(SharedLayers, NameNoFamily) {
  const Names names = family_names();
  const auto files = shared_files();
  // The scan reads what it should (a wrong root would pass silently).
  for (const char* f : {"CMakeLists.txt", "src/serve/serve.cpp", "src/cli/bench.cpp", "src/serve/web/app.js",
                        "include/tansaku/search/explore.h"})
    EXPECT_TRUE(std::count(files.begin(), files.end(), kSource / f)) << f << " is not scanned";
  std::ostringstream hits;
  int count = 0;
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    ASSERT_TRUE(in) << file;
    std::string line;
    for (int n = 1; std::getline(in, line); ++n)
      for (const auto& w : family_words(line, names)) {
        hits << fs::relative(file, kSource).string() << ":" << n << ": '" << w << "' names a family\n";
        ++count;
      }
  }
  EXPECT_EQ(count, 0) << "the shared layers name a family (declare it in the family's Family instead):\n"
                      << hits.str();
}
