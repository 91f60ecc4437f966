// Resumable table builds. A layered build (breadth-first search over a projection) that runs
// for hours must survive --timeout, Ctrl-C or a crash: from time to time, after a layer, and
// when it is stopped, it saves its whole state (table cells, frontier bit-sets, counters) as
// named sections of a "partial" file beside the table it is building, in the one table file
// format (atomic writes, checksums). A build whose identity (the kind and content hash of
// the table, the builder's version) matches a partial file goes on from it; a damaged one is
// noted in one line and the build starts over; the complete table replaces it. `pdb list`,
// `pdb verify` and `pdb remove` see partial files as their own kind (partial_kind()).
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "tansaku/pdb/cache.h"
#include "tansaku/pdb/table_file.h"

namespace tansaku::pdb {

// Which build a partial file belongs to: it resumes only a build of the same identity.
struct BuildIdentity {
  std::string kind;     // the complete table's kind (TableHeader::kind)
  std::string content;  // the complete table's content hash (ContentHash::hex)
  std::string builder;  // the builder, its version and the layout of its state ("bfs 1 cells 2")
};

// Where a build stands, as saved with its sections.
struct BuildPoint {
  std::int64_t layer = 0;       // the layer the build goes on with
  std::uint64_t done = 0;       // cells (or placements) filled so far
  std::uint64_t total = 0;      // of this many (0: unknown)
  nlohmann::ordered_json info;  // the builder's own counters (an object)
};

// The partial file of a table file: its name with ".partial" appended.
std::filesystem::path partial_path(const std::filesystem::path& table_file);

class Checkpoint {
 public:
  // `table_file`: where the complete table goes. Saves come at most every `interval`
  // seconds (and no more often than every twenty times what the last save took, so that saving a
  // large state stays a small part of the build); 0 saves after every layer (tests).
  // `note` receives one-line notes (resuming, a damaged or foreign partial file ignored).
  Checkpoint(std::filesystem::path table_file, BuildIdentity id, double interval = 60,
             std::function<void(const std::string&)> note = {});

  const std::filesystem::path& file() const { return partial_; }
  const BuildIdentity& identity() const { return id_; }
  // The builder's name, once it knows the layout of its state (before resume()).
  void set_builder(std::string builder) { id_.builder = std::move(builder); }

  // The builder named in the partial file there, if it reads and is this table's (its
  // sections not yet checked): a builder with several state layouts picks the saved one.
  std::optional<std::string> saved_builder() const;
  // The partial file of this identity, with every section checked, or nothing (none there;
  // another build's, or damaged: noted, and the build starts over). InputError when its
  // sections do not fit `memory`.
  std::optional<TableReader> resume(std::uint64_t memory = UINT64_MAX, unsigned threads = 1);
  // Where a resumed build stands (from resume()'s reader).
  static BuildPoint point_of(const TableReader& r);

  // Whether a save is due after a layer.
  bool due() const;
  // Writes the partial file (atomically: the previous one stays whole until it is replaced).
  void save(const BuildPoint& p, std::span<const SectionData> sections, unsigned threads = 1);
  bool saved() const { return saved_; }  // this process wrote the partial file
  // The layer resume() went on from (none: the build started from the beginning).
  std::optional<std::int64_t> resumed_layer() const { return resumed_; }
  void note(const std::string& line) const {
    if (note_) note_(line);
  }
  // The complete table is written: the partial file goes.
  void finish();

  // Test hook: called after each layer's save decision with the layer completed (a test
  // stops the build there deterministically, e.g. by cancelling its deadline).
  std::function<void(std::int64_t layer)> after_layer;

 private:
  std::string table_name() const;  // the complete table's file name
  std::filesystem::path partial_;
  BuildIdentity id_;
  double interval_;
  std::function<void(const std::string&)> note_;
  double last_save_ = 0, save_seconds_ = 0;
  bool saved_ = false;
  std::optional<std::int64_t> resumed_;
};

// Bytes the partial file of a build whose state takes `state_bytes` needs on disk at most:
// twice that while a save replaces the previous one, less a partial file already there.
std::uint64_t partial_disk_bytes(const std::filesystem::path& table_file, std::uint64_t state_bytes);

// What the tables of one `pdb build` need on disk, counted before anything is built: the
// table files still to write (one already there is kept, unless forced) and the largest of
// their builds' partial files (the builds run one after another, and a table file is
// written while its partial file is still there).
struct DiskNeed {
  std::uint64_t files = 0, partial = 0;
  // A table to build into `file`: the file's bytes, and the bytes of its build's state.
  void add(const std::filesystem::path& file, std::uint64_t file_bytes, std::uint64_t state_bytes, bool force);
  std::uint64_t total() const { return files + partial; }
  // Whether the disk of `dir` has total() free.
  bool fits(const std::filesystem::path& dir) const;
  // InputError "--dir DIR: the tables may take up to X and their partial builds up to Y, and
  // the disk has Z free" when the disk of `dir` has less free than total().
  void require(const std::filesystem::path& dir) const;
};
// The bytes free on the disk of `dir` (the most there is when that cannot be told).
std::uint64_t free_disk_bytes(const std::filesystem::path& dir);

// The kind of partial files in the cache directory (listed after every family's tables).
const TableKind& partial_kind();

}  // namespace tansaku::pdb
