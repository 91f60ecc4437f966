// The table cache directory as one place for every family's pattern databases: a family
// registers the kinds of table file it writes (TableKind: which file names are its, what a
// listing shows of one, how to check one to the last byte), and listing the directory,
// checking files and removing them are written once, here, for `tansaku pdb list`,
// `pdb verify` and `pdb remove` (src/cli/pdb.cpp). Families keep their own file layouts.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tansaku/search/limits.h"

namespace tansaku::pdb {

using json = nlohmann::ordered_json;

struct TableKind {
  // The heading of these files in `pdb list`; "{}" stands for the directory.
  std::string heading;
  // Whether `pdb list` leaves the heading out when there is no such file (instead of "(none)").
  bool hide_when_empty = false;
  // Folders of the table directory that hold files of this kind too (a solver's own tables),
  // besides the directory itself. Other folders there are not the cache's: never listed or
  // removed.
  std::vector<std::string> folders;
  // Whether a file of this name is a table of this kind (any layout it still reads).
  std::function<bool(const std::string& file_name)> claims;
  // What `pdb list` shows of a file: one line (no indent, no newline) and one JSON object.
  // Reads the header only; InputError when the file does not read as this kind.
  std::function<std::pair<std::string, json>(const std::filesystem::path& file)> describe;
  // Reads the whole file and checks it (sizes, checksums); InputError saying what is wrong.
  std::function<void(const std::filesystem::path& file, const search::Limits& lim)> verify;
};

// Every family's kinds of table file, in the registry's order, then partial builds
// (checkpoint.h).
std::vector<const TableKind*> registered_kinds();

// The kind that claims a file of this name, or nullptr.
const TableKind* kind_of(const std::string& file_name, const std::vector<const TableKind*>& kinds);

struct TableFile {
  std::filesystem::path path;
  const TableKind* kind = nullptr;
};
// The files of `dir` and of the kinds' folders in it some kind claims, by kind (in order),
// then by path; none when `dir` is not a directory.
std::vector<TableFile> table_files(const std::filesystem::path& dir, const std::vector<const TableKind*>& kinds);

// `pdb list`: the text (each kind's heading, then a line per file, or "(none)") and {"dir",
// "tables": [each file's object]}. A file that does not read (damaged, of an earlier layout)
// has the line "unreadable: WHY" (describe's refusal: the file, why, the way out) and is in
// "unreadable": [{"file", "error"}] (the key only when there is one).
std::pair<std::string, json> list_tables(const std::filesystem::path& dir, const std::vector<const TableKind*>& kinds);

// `pdb verify` of one file: "" when it reads to the end and its checksums hold, else why not.
std::string verify_table(const TableFile& f, const search::Limits& lim);

}  // namespace tansaku::pdb
