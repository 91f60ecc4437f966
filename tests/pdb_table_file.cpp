// The one table file format (tansaku/pdb/table_file.h): a round trip raw and compressed, the
// one-line refusal of a flipped byte, a truncated or lengthened file and a file too big for
// the memory budget (before its sections are read); and perm's projection tables kept in the
// table cache by content: found again for a copy of the definition under another name, not
// for another instance, and loaded by the second solve of the command line; sliding's tables
// written in the format, and a file of an earlier layout refused in one line; a big section
// placed for a search (read once into huge pages, or mapped and copied there in the
// background) with the same bytes, checked, with progress and the deadline.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <thread>
#include <tuple>

#include <stdlib.h>
#include <unistd.h>

#include <zstd.h>

#include "cli_util.h"
#include "perm/definition.h"
#include "perm/generators.h"
#include "perm/pdb.h"
#include "sliding/pdb.h"
#include "tansaku/core/deadline.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/progress.h"
#include "tansaku/pdb/table_file.h"

using namespace tansaku;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name)
      : path(fs::temp_directory_path() / ("tansaku-" + name + "-" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::string slurp(const fs::path& f) {
  std::ifstream in(f, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}
void spit(const fs::path& f, const std::string& s) { std::ofstream(f, std::ios::binary | std::ios::trunc) << s; }

// Bytes that compress, but not to nothing: a short random alphabet.
std::vector<std::uint8_t> sample(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng() % 5);
  return v;
}

// Writes a file of two sections (`cells` raw, `packed` zstd) and returns their contents.
std::pair<std::vector<std::uint8_t>, std::vector<std::uint8_t>> write_sample(const fs::path& file, std::size_t raw,
                                                                             std::size_t packed) {
  auto a = sample(raw, 1), b = sample(packed, 2);
  pdb::TableHeader h{"test-kind", "0123456789abcdef", "u8-distance", raw, {{"puzzle", "test"}, {"max_distance", 4}}};
  const pdb::SectionData s[] = {{"cells", a.data(), a.size(), pdb::Storage::raw},
                                {"packed", b.data(), b.size(), pdb::Storage::zstd}};
  pdb::write_table_file(file, h, s, 2);
  return {a, b};
}

// `f` throws InputError with one line naming the file and holding `what` and the hint.
template <class F>
void expect_refusal(F f, const fs::path& file, const std::string& what) {
  try {
    f();
    ADD_FAILURE() << "not refused: " << file;
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    EXPECT_NE(m.find(file.string()), std::string::npos) << m;
    EXPECT_NE(m.find(what), std::string::npos) << m;
    EXPECT_NE(m.find("tansaku pdb"), std::string::npos) << m;
  }
}

}  // namespace

TEST(PdbTableFile, RoundTripRawAndCompressed) {
  TempDir dir("table-file");
  const fs::path file = dir.path / "t.tab";
  // More than one zstd frame of 16 MiB; a raw section not a whole number of words.
  const auto [a, b] = write_sample(file, 100003, (std::size_t{17} << 20) + 5);
  EXPECT_TRUE(pdb::is_table_file(file));
  const pdb::TableReader r(file, "");
  EXPECT_EQ(r.header().kind, "test-kind");
  EXPECT_EQ(r.header().content, "0123456789abcdef");
  EXPECT_EQ(r.header().encoding, "u8-distance");
  EXPECT_EQ(r.header().entries, 100003u);
  EXPECT_EQ(r.header().info.value("max_distance", 0), 4);
  EXPECT_EQ(r.memory_bytes(), a.size() + b.size());
  EXPECT_EQ(r.file_bytes(), fs::file_size(file));
  EXPECT_LT(r.file_bytes(), b.size());  // compressed
  EXPECT_TRUE(r.has("cells") && r.has("packed") && !r.has("other"));
  const pdb::Bytes x = r.section("cells"), y = r.section("packed", 2);
  ASSERT_EQ(x.size, a.size());
  ASSERT_EQ(y.size, b.size());
  EXPECT_EQ(std::memcmp(x.data, a.data(), a.size()), 0);
  EXPECT_EQ(std::memcmp(y.data, b.data(), b.size()), 0);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(x.data) % 4096, 0u);  // mapped from a page boundary
  r.verify(2);
  // No temporary file left beside it.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()), 1);
  // A file of another layout is not this format; one of a layout tansaku wrote before it
  // is named as such.
  spit(dir.path / "old.ptab", "TSKPERMPDB1\n{}\n");
  EXPECT_FALSE(pdb::is_table_file(dir.path / "old.ptab"));
  expect_refusal([&] { pdb::TableReader(dir.path / "old.ptab", ""); }, dir.path / "old.ptab",
                 "a table file of an earlier version of tansaku");
  spit(dir.path / "other.ptab", "something else entirely");
  expect_refusal([&] { pdb::TableReader(dir.path / "other.ptab", ""); }, dir.path / "other.ptab",
                 "not a tansaku table file");
}

TEST(PdbTableFile, FlippedByteRefusedInOneLine) {
  TempDir dir("table-flip");
  const fs::path file = dir.path / "t.tab";
  write_sample(file, 50000, 70000);
  const std::string good = slurp(file);
  const pdb::TableReader probe(file, "");
  const std::uint64_t cells = probe.json()["sections"][0].value("offset", std::uint64_t{0}),
                      packed = probe.json()["sections"][1].value("offset", std::uint64_t{0});
  auto flipped = [&](std::uint64_t at) {
    std::string s = good;
    s[static_cast<std::size_t>(at)] ^= 0x10;
    spit(file, s);
  };
  flipped(cells + 1234);  // in the raw section: its checksum
  expect_refusal([&] { pdb::TableReader(file, "").verify(); }, file, "checksum of section cells");
  flipped(packed + 40);  // in the compressed section
  expect_refusal([&] { pdb::TableReader(file, "").section("packed"); }, file, "section packed");
  flipped(40);  // in the header: its own checksum, before anything else
  expect_refusal([&] { pdb::TableReader(file, ""); }, file, "header");
  flipped(2);  // in the magic
  expect_refusal([&] { pdb::TableReader(file, ""); }, file, "not a tansaku table file");
  spit(file, good);
  pdb::TableReader(file, "").verify();
}

TEST(PdbTableFile, TruncatedOrLengthenedRefused) {
  TempDir dir("table-trunc");
  const fs::path file = dir.path / "t.tab";
  write_sample(file, 50000, 70000);
  const std::string good = slurp(file);
  for (std::size_t keep : {good.size() - 1, good.size() / 2, std::size_t{4096}, std::size_t{30}, std::size_t{3}}) {
    spit(file, good.substr(0, keep));
    expect_refusal([&] { pdb::TableReader(file, "`tansaku pdb build x` builds it again"); }, file, "truncated");
  }
  spit(file, good + "x");
  expect_refusal([&] { pdb::TableReader(file, ""); }, file, "longer than it says");
  spit(file, "");
  expect_refusal([&] { pdb::TableReader(file, ""); }, file, "not a tansaku table file");
}

TEST(PdbTableFile, TooBigForTheMemoryBudgetRefusedBeforeReading) {
  TempDir dir("table-memory");
  const fs::path file = dir.path / "t.tab";
  write_sample(file, 1 << 20, 1 << 20);
  // A damaged section too: the refusal is the budget's, so no section was read.
  std::string s = slurp(file);
  s[s.size() - 100] ^= 1;
  s[8192 + 100] ^= 1;
  spit(file, s);
  try {
    pdb::TableReader r(file, "", std::uint64_t{1} << 20);
    ADD_FAILURE() << "not refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("memory budget"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
  }
  const pdb::TableReader r(file, "", std::uint64_t{2} << 20);  // fits: opened; the damage shows on reading
  EXPECT_THROW(r.verify(), InputError);
}

TEST(PdbTableFile, WriteIntoAnUnwritableDirectoryRefused) {
  TempDir dir("table-ro");
  spit(dir.path / "file", "x");
  const auto v = sample(100, 3);
  const pdb::SectionData s[] = {{"cells", v.data(), v.size(), pdb::Storage::raw}};
  EXPECT_THROW(pdb::write_table_file(dir.path / "file" / "sub" / "t.tab", pdb::TableHeader{"k", "c", "e", 100, {}}, s),
               InputError);
}

TEST(PermProjectionCache, FoundByContentNotByName) {
  TempDir dir("projection-cache");
  TempDir defs("projection-defs");
  ::setenv("TANSAKU_PDB_DIR", dir.path.c_str(), 1);
  perm::set_projection_cache_from(0);
  const perm::Definition d = perm::load_definition("2x2x2");
  // The same definition in a file of another name, under another Name.
  std::string text = slurp(fs::path(shipped_data_dir()) / "perm" / "2x2x2.tws");
  const auto at = text.find("Name 2x2x2");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 10, "Name my-cube");
  spit(defs.path / "my-cube.tws", text);
  const perm::Definition copy = perm::load_definition((defs.path / "my-cube.tws").string());
  ASSERT_EQ(copy.name, "my-cube");
  const perm::MoveSet ms = perm::build_moves(d, "htm", ""), ms2 = perm::build_moves(copy, "htm", "");
  search::Limits lim;
  lim.threads = 2;
  const std::uint64_t budget = 200000;
  const auto built = perm::make_pattern_dbs(d, ms, d.solved, budget, lim);
  ASSERT_GE(built.size(), 2u);
  for (const auto& p : built) {
    EXPECT_FALSE(p->loaded());
    EXPECT_TRUE(fs::exists(p->cache_file())) << p->cache_file();
    EXPECT_EQ(p->cache_file().parent_path(), dir.path);
  }
  const auto again = perm::make_pattern_dbs(copy, ms2, copy.solved, budget, lim);
  ASSERT_EQ(again.size(), built.size());
  std::mt19937 rng(5);
  for (std::size_t i = 0; i < built.size(); ++i) {
    EXPECT_TRUE(again[i]->loaded());
    EXPECT_EQ(again[i]->content_key(), built[i]->content_key());
    EXPECT_EQ(again[i]->max_value(), built[i]->max_value());
    perm::Position p = d.solved;
    for (int s = 0; s < 300; ++s) {  // the same values along a random walk
      p = d.applied(ms.gens[rng() % ms.gens.size()].p, p);
      ASSERT_EQ(again[i]->h(p), built[i]->h(p));
    }
  }
  // Another instance (fewer moves; another goal): other keys, built, not loaded.
  const perm::MoveSet fewer = perm::build_moves(d, "htm", "U,R");
  for (const auto& p : perm::make_pattern_dbs(d, fewer, d.solved, budget, lim)) EXPECT_FALSE(p->loaded());
  const perm::Position other_goal = d.applied(ms.gens[0].p, d.solved);
  for (const auto& p : perm::make_pattern_dbs(d, ms, other_goal, budget, lim)) EXPECT_FALSE(p->loaded());
  // A damaged file is built again and replaced.
  const fs::path f = built[0]->cache_file();
  std::string s = slurp(f);
  s[s.size() - 1] ^= 0x40;
  spit(f, s);
  const auto mended = perm::make_pattern_dbs(d, ms, d.solved, budget, lim);
  EXPECT_FALSE(mended[0]->loaded());
  EXPECT_TRUE(mended[1]->loaded());
  pdb::TableReader(f, "").verify();
  // Without the cache: nothing read or written.
  fs::remove(f);
  for (const auto& p : perm::make_pattern_dbs(d, ms, d.solved, budget, lim, false)) EXPECT_FALSE(p->loaded());
  EXPECT_FALSE(fs::exists(f));
  perm::set_projection_cache_from(std::uint64_t{1} << 20);
  ::unsetenv("TANSAKU_PDB_DIR");
}

TEST(PermProjectionCache, SecondSolveLoadsTheTables) {
  TempDir dir("projection-cli");
  const std::string env = "TANSAKU_PDB_DIR=" + dir.path.string() + " ";
  auto solve = [&](const std::string& prefix) {
    const CliResult r = run_sh(prefix, "solve perm:2x2x2 --scramble \"R U F\" --json");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    return r.json();
  };
  const auto first = solve(env);
  EXPECT_EQ(first["length"], 3);
  // The files the first solve wrote; the second loads them and writes none (a table built
  // again would be a new file renamed over the old). The answer says the same either way.
  std::map<std::string, fs::file_time_type> written;
  for (const auto& e : fs::directory_iterator(dir.path)) {
    EXPECT_TRUE(perm::is_projection_file_name(e.path().filename().string())) << e.path();
    written[e.path().filename().string()] = fs::last_write_time(e.path());
  }
  EXPECT_GE(written.size(), 1u);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // a rewrite would change the times
  const auto second = solve(env);
  EXPECT_EQ(second["length"], 3);
  EXPECT_EQ(second["moves"], first["moves"]);
  EXPECT_EQ(second["heuristic"], first["heuristic"]);
  std::size_t kept = 0;
  for (const auto& e : fs::directory_iterator(dir.path)) {
    const auto it = written.find(e.path().filename().string());
    ASSERT_NE(it, written.end()) << e.path();
    EXPECT_EQ(fs::last_write_time(e.path()), it->second) << e.path();
    ++kept;
  }
  EXPECT_EQ(kept, written.size());
  // `pdb list` and `pdb verify` show them under perm's tables.
  const CliResult list = run_sh(env, "pdb list --json");
  ASSERT_EQ(list.code, 0) << list.err;
  int listed = 0;
  const auto listing = list.json();
  for (const auto& t : listing["tables"])
    if (t.contains("projection")) {
      ++listed;
      EXPECT_EQ(t["puzzle"], "perm:2x2x2");
    }
  EXPECT_EQ(static_cast<std::size_t>(listed), written.size()) << list.out;
  const CliResult verify = run_sh(env, "pdb verify");
  EXPECT_EQ(verify.code, 0) << verify.out;
  // A cache directory that cannot be made (a file stands in its way): the solve is the same, silent.
  spit(dir.path / "blocker", "x");
  const auto blocked = solve("TANSAKU_PDB_DIR=" + (dir.path / "blocker" / "sub").string() + " ");
  EXPECT_EQ(blocked["length"], 3);
}

TEST(PdbTableFile, SlidingTablesInTheFormatAndTheEarlierLayoutRefused) {
  TempDir dir("sliding-tables");
  const sliding::pdb::TableInfo info{3, 3, 0, {1, 2, 3, 4}};
  const auto t = sliding::pdb::build_table(info);
  const fs::path file = dir.path / info.file_name();
  sliding::pdb::save_table(*t, file);
  EXPECT_TRUE(pdb::is_table_file(file));
  EXPECT_EQ(pdb::TableReader(file, "").header().kind, "sliding-pdb");
  EXPECT_EQ(sliding::pdb::read_table_info(file), info);
  const auto back = sliding::pdb::load_table(file);
  ASSERT_TRUE(std::equal(t->data(), t->data() + info.bytes(), back->data()));
  EXPECT_EQ(back->max_distance, t->max_distance);
  // The earlier layout: magic, version 2, encoding 1, the board and group, sizes, the frame
  // index, then the zstd frames (here one). Refused in one line naming the file, with the way
  // out.
  auto put = [](std::string& out, auto v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); };
  std::string packed(ZSTD_compressBound(info.bytes()), '\0');
  packed.resize(ZSTD_compress(packed.data(), packed.size(), t->data(), info.bytes(), 3));
  std::string old("TSKPDB1\n");
  for (std::uint32_t v : {2u, 1u, 3u, 3u, 0u, 4u}) put(old, v);
  for (std::uint8_t c : info.cells) put(old, c);
  put(old, info.entries());
  put(old, info.bytes());
  put(old, static_cast<std::int32_t>(t->max_distance));
  put(old, std::uint32_t{24});
  put(old, std::uint32_t{1});
  put(old, static_cast<std::uint64_t>(packed.size()));
  spit(file, old + packed);
  EXPECT_FALSE(pdb::is_table_file(file));
  const std::string why = "a table file of an earlier version of tansaku";
  expect_refusal([&] { (void)sliding::pdb::read_table_info(file); }, file, why);
  expect_refusal([&] { (void)sliding::pdb::load_table(file); }, file, why);
  expect_refusal([&] { (void)sliding::pdb::load_table(file); }, file,
                 "`tansaku pdb remove " + file.filename().string() + "`");
}

namespace {

// The tuning bounds of huge pages as a test sets them, put back when it ends.
struct HugeBounds {
  HugeBounds(std::uint64_t copy_from, std::uint64_t once_above) {
    pdb::set_huge_copy_from(copy_from);
    pdb::set_read_once_above(once_above);
  }
  ~HugeBounds() {
    pdb::set_huge_copy_from(std::uint64_t{64} << 20);
    pdb::set_read_once_above(~std::uint64_t{0});
  }
};

// A progress sink that takes the lines and, from the first one on, cancels the deadline
// (`stop`) when asked to.
struct Lines final : ProgressSink {
  bool stop_on_first = false;
  std::atomic<bool> stop{false};
  std::vector<std::string> lines;
  void line(const std::string& text) override {
    lines.push_back(text);
    if (stop_on_first) stop = true;
  }
};

}  // namespace

TEST(PdbTableFile, BigSectionsInHugePagesTheSameBytesChecked) {
  TempDir dir("table-load");
  const fs::path file = dir.path / "t.tab";
  // Several reads of 8 MiB per part, and a last one not a whole number of pages or words.
  const auto [a, b] = write_sample(file, (std::size_t{20} << 20) + 4099, 300000);
  const pdb::TableReader r(file, "`tansaku pdb build x` builds it again");
  search::Limits lim;
  lim.threads = 3;
  auto same = [&](const pdb::LoadedSection& s, const std::vector<std::uint8_t>& want) {
    ASSERT_EQ(s.bytes, want.size());
    ASSERT_NE(s.memory.get(), nullptr);
    EXPECT_EQ(std::memcmp(s.memory.get(), want.data(), want.size()), 0);
  };
  {
    // Read once (every file above 0 bytes), straight into huge pages: no mapping, no copy.
    const HugeBounds bounds(0, 0);
    const pdb::LoadedSection s = r.load("cells", lim);
    same(s, a);
    EXPECT_FALSE(s.mapped);
    EXPECT_FALSE(s.upgrade);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(s.memory.get()) % (std::uintptr_t{2} << 20), 0u);
    // Into huge pages whatever the size, read once or not; compressed sections too.
    same(r.load("cells", lim, pdb::Placement::huge_pages), a);
    same(r.load("packed", lim), b);
  }
  {
    // Mapped, then copied into huge pages by a thread: the copy handed over holds the same bytes.
    const HugeBounds bounds(0, ~std::uint64_t{0} - 1);
    pdb::LoadedSection s = r.load("cells", lim);
    same(s, a);
    EXPECT_TRUE(s.mapped);
    ASSERT_TRUE(s.upgrade);
    std::atomic<std::uint8_t*> copy{nullptr};
    std::size_t copied = 0;
    std::shared_ptr<void> task = s.upgrade([&](void* p, std::size_t n) {
      copied = n;
      copy.store(static_cast<std::uint8_t*>(p));
    });
    for (int i = 0; i < 6000 && !copy.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    task.reset();
    ASSERT_NE(copy.load(), nullptr);
    const std::unique_ptr<std::uint8_t[], PagesDeleter> owned(copy.load(), PagesDeleter{copied});
    EXPECT_EQ(copied, a.size());
    EXPECT_EQ(std::memcmp(owned.get(), a.data(), a.size()), 0);
    EXPECT_NE(owned.get(), s.memory.get());
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(owned.get()) % (std::uintptr_t{2} << 20), 0u);
    // Loaded only to check it, or small: mapped, no copy.
    const pdb::LoadedSection c = r.load("cells", lim, pdb::Placement::check);
    same(c, a);
    EXPECT_TRUE(c.mapped && !c.upgrade);
  }
  {
    const HugeBounds bounds(std::uint64_t{64} << 20, ~std::uint64_t{0});
    const pdb::LoadedSection s = r.load("cells", lim);
    same(s, a);
    EXPECT_TRUE(s.mapped && !s.upgrade);
  }
  // A budget smaller than the section: refused before anything is read.
  search::Limits small = lim;
  small.memory = a.size() - 1;
  EXPECT_THROW((void)r.load("cells", small), InputError);
}

TEST(PdbTableFile, BigSectionsRefusedWhenDamagedAndStoppedOnTheDeadline) {
  TempDir dir("table-load-bad");
  const fs::path file = dir.path / "t.tab";
  const auto [a, b] = write_sample(file, (std::size_t{20} << 20) + 4099, 1000);
  search::Limits lim;
  lim.threads = 2;
  const std::uint64_t cells = pdb::TableReader(file, "").json()["sections"][0].value("offset", std::uint64_t{0});
  // Progress lines, then LimitError once the deadline passes (here: at the first line), in
  // each way of placing it; with a label, the line names what is loaded.
  for (const auto& [copy_from, once_above, placement] :
       {std::tuple{std::uint64_t{0}, std::uint64_t{0}, pdb::Placement::search},
        std::tuple{std::uint64_t{0}, ~std::uint64_t{0} - 1, pdb::Placement::search},
        std::tuple{std::uint64_t{0}, ~std::uint64_t{0} - 1, pdb::Placement::huge_pages},
        std::tuple{std::uint64_t{64} << 20, ~std::uint64_t{0}, pdb::Placement::check}}) {
    const HugeBounds bounds(copy_from, once_above);
    const pdb::TableReader r(file, "");
    Lines sink;
    set_thread_progress_sink(&sink);
    {
      Progress progress(true);
      search::Limits shown = lim;
      shown.progress = &progress;
      (void)r.load("cells", shown, placement, "class table");
    }
    ASSERT_FALSE(sink.lines.empty());
    EXPECT_EQ(sink.lines.front(), "loading t.tab: class table 0%");
    sink.lines.clear();
    sink.stop_on_first = true;
    {
      Progress progress(true);
      Deadline deadline;
      deadline.cancel_on(&sink.stop);
      search::Limits stopped = lim;
      stopped.progress = &progress;
      stopped.deadline = &deadline;
      EXPECT_THROW((void)r.load("cells", stopped, placement), LimitError);
    }
    set_thread_progress_sink(nullptr);
    ASSERT_FALSE(sink.lines.empty());
    EXPECT_EQ(sink.lines.front(), "loading t.tab: 0%");
  }
  // A byte changed among the cells: refused in one line, in each way of placing them.
  std::string bytes = slurp(file);
  bytes[cells + (std::size_t{13} << 20)] ^= 0x20;
  spit(file, bytes);
  const pdb::TableReader r(file, "`tansaku pdb build x` builds it again");
  for (const auto& [copy_from, once_above] :
       {std::pair{std::uint64_t{0}, std::uint64_t{0}}, std::pair{std::uint64_t{0}, ~std::uint64_t{0} - 1},
        std::pair{std::uint64_t{64} << 20, ~std::uint64_t{0}}}) {
    const HugeBounds bounds(copy_from, once_above);
    for (auto placement : {pdb::Placement::search, pdb::Placement::huge_pages, pdb::Placement::check})
      expect_refusal([&] { (void)r.load("cells", lim, placement); }, file,
                     "damaged table file (the checksum of section cells)");
  }
  // Changed after it was mapped: the copy, checked again, is not handed over.
  bytes[cells + (std::size_t{13} << 20)] ^= 0x20;
  spit(file, bytes);
  const HugeBounds bounds(0, ~std::uint64_t{0} - 1);
  const pdb::TableReader fresh(file, "");
  pdb::LoadedSection s = fresh.load("cells", lim);
  ASSERT_TRUE(s.upgrade);
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(cells + 100));
    f.put('\x7f');
  }
  std::atomic<bool> adopted{false};
  std::shared_ptr<void> task = s.upgrade([&](void* p, std::size_t n) {
    adopted = true;
    PagesDeleter{n}(p);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  task.reset();
  EXPECT_FALSE(adopted.load());
}
