// Resumable pattern-database builds (tansaku/pdb/checkpoint.h, used by sliding's builder):
// a build stopped after layer k and resumed writes the same table file, byte for byte, as
// one never stopped, whatever the threads before and after; a damaged or foreign partial
// file is passed over and the build starts again; the CLI keeps the partial build on
// --timeout, goes on from it, and `pdb list / verify / remove` show, check and delete it.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <unistd.h>

#include "cli_util.h"
#include "scratch_dir.h"
#include "sliding/pdb.h"
#include "tansaku/core/deadline.h"
#include "tansaku/core/error.h"
#include "tansaku/pdb/checkpoint.h"

using namespace tansaku;
namespace fs = std::filesystem;
namespace spdb = tansaku::sliding::pdb;

namespace {

class PdbResume : public ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    ::setenv("TANSAKU_PDB_DIR", (dir_ / "cache").c_str(), 1);
  }

  // The table file of an uninterrupted build, as bytes.
  std::string uninterrupted(const spdb::TableInfo& info, spdb::BuildState state) {
    const fs::path file = dir_ / ("whole-" + info.file_name());
    search::Limits lim;
    spdb::save_table(*spdb::build_table(info, lim, state), file);
    return file_bytes(file);
  }

  // Builds `info` into `file` with a checkpoint saving after every layer, stopped (as by a
  // deadline) once layer `stop_after` is done (-1: never). Returns whether it completed;
  // `notes` collects the checkpoint's notes.
  bool build(const spdb::TableInfo& info, const fs::path& file, spdb::BuildState state, unsigned threads,
             int stop_after, std::vector<std::string>* notes = nullptr,
             std::optional<std::int64_t>* resumed = nullptr) {
    std::atomic<bool> cancel{false};
    Deadline deadline;
    deadline.cancel_on(&cancel);
    search::Limits lim;
    lim.threads = threads;
    lim.deadline = &deadline;
    auto cp = spdb::checkpoint(info, file, 0, [&](const std::string& s) {
      if (notes) notes->push_back(s);
    });
    cp.after_layer = [&](std::int64_t layer) {
      if (layer == stop_after) cancel = true;
    };
    try {
      auto t = spdb::build_table(info, lim, state, &cp);
      if (resumed) *resumed = cp.resumed_layer();
      spdb::save_table(*t, file);
      cp.finish();
      return true;
    } catch (const LimitError&) {
      EXPECT_TRUE(cp.saved());
      EXPECT_TRUE(fs::exists(cp.file()));
      if (resumed) *resumed = cp.resumed_layer();
      return false;
    }
  }
};

const spdb::TableInfo k4x4{4, 4, 0, {1, 2, 3, 4, 5}};  // 524,160 placements: 8 chunks, 30-odd layers

}  // namespace

TEST_F(PdbResume, StoppedAfterALayerAndResumedGivesTheSameFile) {
  for (auto state : {spdb::BuildState::cells, spdb::BuildState::regions}) {
    const std::string whole = uninterrupted(k4x4, state);
    for (int k : {0, 4, 11}) {
      SCOPED_TRACE(testing::Message() << (state == spdb::BuildState::cells ? "cells" : "regions") << ", stop after "
                                      << k);
      const fs::path file = dir_ / k4x4.file_name();
      const fs::path partial = tansaku::pdb::partial_path(file);
      ASSERT_FALSE(build(k4x4, file, state, 1, k));
      EXPECT_FALSE(fs::exists(file));
      EXPECT_TRUE(fs::exists(partial));
      // Stopped twice more on the way, then to the end.
      std::optional<std::int64_t> resumed;
      ASSERT_FALSE(build(k4x4, file, state, 1, k + 3, nullptr, &resumed));
      EXPECT_EQ(resumed, k + 1);  // the stop came at the start of layer k + 1
      ASSERT_FALSE(build(k4x4, file, state, 1, k + 7));
      ASSERT_TRUE(build(k4x4, file, state, 1, -1, nullptr, &resumed));
      EXPECT_EQ(resumed, k + 8);
      EXPECT_FALSE(fs::exists(partial));
      EXPECT_TRUE(file_bytes(file) == whole);
      fs::remove(file);
    }
  }
}

TEST_F(PdbResume, ThreadsBeforeAndAfterDoNotMatter) {
  const std::string whole = uninterrupted(k4x4, spdb::BuildState::cells);
  for (auto [before, after] : {std::pair{1u, 2u}, std::pair{2u, 1u}, std::pair{2u, 2u}}) {
    SCOPED_TRACE(testing::Message() << before << " then " << after << " threads");
    const fs::path file = dir_ / k4x4.file_name();
    ASSERT_FALSE(build(k4x4, file, spdb::BuildState::cells, before, 6));
    std::optional<std::int64_t> resumed;
    ASSERT_TRUE(build(k4x4, file, spdb::BuildState::cells, after, -1, nullptr, &resumed));
    EXPECT_EQ(resumed, 7);
    EXPECT_TRUE(file_bytes(file) == whole);
    fs::remove(file);
  }
}

TEST_F(PdbResume, ADamagedPartialFileIsPassedOver) {
  const std::string whole = uninterrupted(k4x4, spdb::BuildState::cells);
  const fs::path file = dir_ / k4x4.file_name();
  const fs::path partial = tansaku::pdb::partial_path(file);
  // A byte flipped in a section, then the file cut short.
  for (int damage : {0, 1}) {
    SCOPED_TRACE(damage ? "truncated" : "a byte flipped");
    ASSERT_FALSE(build(k4x4, file, spdb::BuildState::cells, 1, 9));
    const std::string bytes = file_bytes(partial);
    {
      std::string bad = bytes;
      if (damage == 0) bad[bad.size() / 2] ^= 0x10;  // inside the largest section (the placements' bit-sets)
      else bad.resize(bad.size() / 2);
      std::ofstream(partial, std::ios::binary | std::ios::trunc) << bad;
    }
    // `pdb verify` names it.
    auto v = run_cli("pdb verify --dir " + dir_.string() + " " + partial.filename().string());
    EXPECT_EQ(v.code, 1) << v.out << v.err;
    std::vector<std::string> notes;
    std::optional<std::int64_t> resumed;
    ASSERT_TRUE(build(k4x4, file, spdb::BuildState::cells, 1, -1, &notes, &resumed));
    EXPECT_FALSE(resumed.has_value());
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("starting over"), std::string::npos) << notes[0];
    EXPECT_EQ(notes[0].find('\n'), std::string::npos);
    EXPECT_TRUE(file_bytes(file) == whole);
    EXPECT_FALSE(fs::exists(partial));
    fs::remove(file);
  }
}

TEST_F(PdbResume, AnotherTablesPartialFileIsPassedOver) {
  const spdb::TableInfo other{4, 4, 0, {1, 2, 3, 4, 6}};
  const fs::path file = dir_ / k4x4.file_name();
  ASSERT_FALSE(build(other, dir_ / other.file_name(), spdb::BuildState::cells, 1, 5));
  fs::rename(tansaku::pdb::partial_path(dir_ / other.file_name()), tansaku::pdb::partial_path(file));
  std::vector<std::string> notes;
  std::optional<std::int64_t> resumed;
  ASSERT_TRUE(build(k4x4, file, spdb::BuildState::cells, 1, -1, &notes, &resumed));
  EXPECT_FALSE(resumed.has_value());
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("another table"), std::string::npos) << notes[0];
  EXPECT_TRUE(file_bytes(file) == uninterrupted(k4x4, spdb::BuildState::cells));
  // The other representation's partial build is not this one's either: regions resume only regions.
  ASSERT_FALSE(build(k4x4, dir_ / "x" / k4x4.file_name(), spdb::BuildState::regions, 1, 5));
  notes.clear();
  ASSERT_TRUE(build(k4x4, dir_ / "x" / k4x4.file_name(), spdb::BuildState::cells, 1, -1, &notes, &resumed));
  EXPECT_FALSE(resumed.has_value());
  EXPECT_EQ(notes.size(), 1u);
  // automatic picks the saved representation when it fits.
  ASSERT_FALSE(build(k4x4, dir_ / "y" / k4x4.file_name(), spdb::BuildState::regions, 1, 5));
  ASSERT_TRUE(build(k4x4, dir_ / "y" / k4x4.file_name(), spdb::BuildState::automatic, 1, -1, nullptr, &resumed));
  EXPECT_EQ(resumed, 6);
  EXPECT_TRUE(file_bytes(dir_ / "y" / k4x4.file_name()) == uninterrupted(k4x4, spdb::BuildState::cells));
}

// `pdb build` run whole into `whole`, stopped by --timeout 0.2 into `cache`, listed (the
// partial file of the right kind), verified, then run again to the end: the same file as
// the whole build, and the partial file gone. Returns the table's file name.
std::string expect_cli_resumes(const std::string& command, const std::string& kind, const fs::path& whole,
                               const fs::path& cache) {
  const std::string build = command + " --quiet --json --dir ";
  auto w = run_cli(build + whole.string());
  EXPECT_EQ(w.code, 0) << w.err;
  if (w.code != 0) return "";
  const std::string file = w.json()["tables"][0]["file"];
  const std::string name = fs::path(file).filename().string();

  auto r = run_cli(build + cache.string() + " --timeout 0.2");
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("time limit"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("partial build is kept"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the same `tansaku pdb build` again"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(cache / (name + ".partial")));

  auto l = run_cli("pdb list --json --dir " + cache.string());
  EXPECT_EQ(l.code, 0) << l.err;
  const auto tables = l.json()["tables"];
  int partial = 0;
  for (const auto& t : tables)
    if (t.value("partial", false) && t["table"] == name) {
      ++partial;
      EXPECT_EQ(t["table_kind"], kind);
      EXPECT_LE(t["done"].get<std::uint64_t>(), t["total"].get<std::uint64_t>());
      EXPECT_GE(t["layer"].get<int>(), 0);
    }
  EXPECT_EQ(partial, 1) << l.out;
  auto text = run_cli("pdb list --dir " + cache.string());
  EXPECT_NE(text.out.find("partial builds in"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find(name + ": partial, at layer"), std::string::npos) << text.out;
  auto v = run_cli("pdb verify --json --dir " + cache.string());
  EXPECT_EQ(v.code, 0) << v.out << v.err;
  EXPECT_GE(v.json()["checked"].get<int>(), 1);

  auto again = run_cli(build + cache.string());
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.err.find("going on from depth"), std::string::npos) << again.err;
  if (again.code == 0) {
    EXPECT_TRUE(again.json()["tables"][0].contains("resumed_at_depth"));
  }
  EXPECT_FALSE(fs::exists(cache / (name + ".partial")));
  EXPECT_TRUE(file_bytes(cache / name) == file_bytes(file));
  return name;
}

TEST_F(PdbResume, CliKeepsThePartialBuildAndGoesOnFromIt) {
  // A 6-tile 4x4 table (5.8 M placements) takes seconds: 0.2 s stops it, wherever in a layer.
  const fs::path cache = dir_ / "cache";
  const std::string build = "pdb build 15-puzzle --groups 6";
  const std::string name = expect_cli_resumes(build, "sliding-pdb", dir_ / "whole", cache);
  ASSERT_FALSE(name.empty());

  // `pdb remove` takes a partial file by name.
  auto stopped = run_cli(build + " --quiet --dir " + cache.string() + " --force --timeout 0.2");
  ASSERT_EQ(stopped.code, 3) << stopped.err;
  auto rm = run_cli("pdb remove --json --dir " + cache.string() + " " + name + ".partial");
  ASSERT_EQ(rm.code, 0) << rm.err;
  EXPECT_EQ(rm.json()["removed"].size(), 1u);
  EXPECT_FALSE(fs::exists(cache / (name + ".partial")));
  EXPECT_TRUE(fs::exists(cache / name));
}

TEST_F(PdbResume, PermCliKeepsThePartialBuildAndGoesOnFromIt) {
  // The skewb's whole pattern (37.8 M entries) takes about a second: 0.2 s stops it.
  EXPECT_FALSE(expect_cli_resumes("pdb build perm:skewb", "perm-pattern", dir_ / "whole", dir_ / "cache").empty());
}

TEST(PdbDiskNeed, CountsTheFilesStillToWriteAndTheLargestPartialBuild) {
  const fs::path dir = fs::temp_directory_path() / ("tansaku_disk_need_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "there.tab") << "a table";
  constexpr std::uint64_t kSlack = std::uint64_t{64} << 10;  // headers and page padding

  tansaku::pdb::DiskNeed need;
  need.add(dir / "new.tab", 100, 1000, false);
  need.add(dir / "there.tab", 50, 5000, false);  // kept: neither its file nor a partial build
  EXPECT_EQ(need.files, 100u);
  EXPECT_EQ(need.partial, 2 * (1000 + kSlack));

  tansaku::pdb::DiskNeed forced;
  forced.add(dir / "new.tab", 100, 1000, true);
  forced.add(dir / "there.tab", 50, 5000, true);
  EXPECT_EQ(forced.files, 150u);
  EXPECT_EQ(forced.partial, 2 * (5000 + kSlack));  // the largest, not the sum
  EXPECT_EQ(forced.total(), 150 + 2 * (5000 + kSlack));

  // A partial build already there has taken part of its room.
  std::ofstream(dir / "new.tab.partial") << std::string(1000, 'x');
  tansaku::pdb::DiskNeed resumed;
  resumed.add(dir / "new.tab", 100, 1000, false);
  EXPECT_EQ(resumed.partial, 2 * (1000 + kSlack) - 1000);

  EXPECT_NO_THROW(need.require(dir));
  tansaku::pdb::DiskNeed huge;
  huge.add(dir / "huge.tab", std::uint64_t{1} << 60, 0, false);
  try {
    huge.require(dir);
    ADD_FAILURE() << "a need of 1 EiB passed";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("--dir ", 0), 0u) << what;
    EXPECT_NE(what.find("free"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  fs::remove_all(dir);
}
