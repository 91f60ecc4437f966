// Piece tables and pattern tables (pattern_table.h) on disk: one file per table in the table cache directory
// (core/cache_dir.h), named after the puzzle and a key of what the distances depend on (the
// sets, the moves in use with their powers, the goal), so that a table is only ever used for
// the instance it was built for. Written in the table file format (tansaku/pdb/table_file.h:
// kind "perm-piece" or "perm-pattern", the header's `info` holding the fields below, the 2-bit
// cells as they are in memory in section "cells", a reduced pattern's sym-move table in
// "sym_moves" and its classes in "classes" (4-bit cells) or "representatives" and "fixed"
// (2-bit cells), all raw, placed in memory by the format's loader,
// TableReader::load). A file of an earlier layout is refused in one line with the
// `pdb remove` / `pdb build` hint.
#pragma once
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perm/pattern_table.h"
#include "perm/piece_table.h"

namespace tansaku::perm {

// What the distances depend on, as a 64-bit key (FNV-1a).
std::uint64_t instance_key(const Definition& d, const MoveSet& ms, const Position& goal);
// "perm-NAME-KEY-": every file of an instance starts so.
std::string instance_prefix(const Definition& d, const MoveSet& ms, const Position& goal);
std::string table_file_name(const Definition& d, const MoveSet& ms, const Position& goal, const PieceSpec& spec);

// The header of a file: {"key", "puzzle", "set", "set_name", "pieces" (1-based labels),
// "orientations", "entries", "bytes", "max_distance"}; a pattern table's has "pattern"
// (pattern_json) in place of set, set_name, pieces, orientations. InputError when neither.
nlohmann::ordered_json read_table_header(const std::filesystem::path& file);

void save_piece_table(const PieceTable& t, const std::string& puzzle, std::uint64_t key, const std::string& set_name,
                      const std::filesystem::path& file);
// Loads a table for the instance (lim: deadline, progress, memory); InputError when the file
// is not the table of `spec` for this instance.
std::unique_ptr<PieceTable> load_piece_table(const std::filesystem::path& file, const Definition& d,
                                             const MoveSet& ms, const Position& goal, const search::Limits& lim);

// The identity of a table's build (tansaku/pdb/checkpoint.h: a stopped build goes on only
// with the same table): its file's kind and content hash.
tansaku::pdb::BuildIdentity piece_identity(std::uint64_t key, const PieceSpec& spec);
tansaku::pdb::BuildIdentity pattern_identity(const Definition& d, std::uint64_t key, const PatternSpec& spec, int bits);

// "perm-NAME-KEY-pattern-PATTERN.ptab", or "...-PATTERN-exact.ptab" for 4-bit cells (bits 4),
// so that both may be kept (piece tables: "perm-NAME-KEY-SET-PIECES.ptab"). A table file's
// name ends so (".ptab.zst": an earlier version's, refused when read, listed and removed with
// the others). A file of 4-bit
// cells has encoding "4-bit-distance" and its header "cell_bits": 4 (read_table_header).
bool is_table_file_name(const std::string& name);
// The --memory from which a solve uses a table a solve holds `bytes` of (a solve takes cached
// tables up to seven eighths of --memory: table_memory), rounded up as a user types it: "20G", "19M".
std::string solve_memory_for(std::uint64_t bytes);
std::string pattern_file_name(const Definition& d, const MoveSet& ms, const Position& goal, const PatternSpec& spec,
                              int bits = 2);
// `symmetries`: the fingerprint of the symmetry group a reduced table was reduced under
// (symmetry_fingerprint), kept in its header; `replaces`: the patterns it stands in for
// (pattern_spec.h: a solve that finds them too uses this one alone), its header's "replaces".
void save_pattern_table(const PatternTable& t, const Definition& d, std::uint64_t key,
                        const std::filesystem::path& file, const std::string& symmetries = "",
                        const std::vector<std::string>& replaces = {});
std::unique_ptr<PatternTable> load_pattern_table(const std::filesystem::path& file, const Definition& d,
                                                 const MoveSet& ms, const Position& goal, const search::Limits& lim);

// Reads a table file to its end and checks its sizes and checksums, whatever instance it is
// for (`pdb verify`); InputError saying what is wrong.
void verify_table_file(const std::filesystem::path& file, const search::Limits& lim);

// While a handle this returns lives (a solve --batch, the Python module's distances): the
// tables load_cached_tables loads stay loaded for the process, by file (its size and
// modification time too), and later solves that choose the same files search them without
// reading them again; only those the last solve chose are kept, and all are let go when
// the last handle goes.
std::shared_ptr<void> hold_loaded_tables();

struct CachedTables {
  std::vector<std::shared_ptr<PieceTable>> pieces;
  std::vector<std::shared_ptr<PatternTable>> patterns;
  std::vector<std::string> left_out;  // "FILE: why" for chosen files that did not load (another layout, damaged)
  std::uint64_t read_bytes = 0;       // of the tables read from their files (not kept loaded: hold_loaded_tables)
  // The largest table of the instance there that `budget` could not hold even alone (its
  // file and what a solve holds of it; empty, 0: none).
  std::filesystem::path too_big;
  std::uint64_t too_big_bytes = 0;
  bool empty() const { return pieces.empty() && patterns.empty(); }
};
// The cached tables of this instance that fit `budget` bytes together, largest first (loaded);
// a pattern another chosen one stands in for (its header's "replaces") is left out.
CachedTables load_cached_tables(const Definition& d, const MoveSet& ms, const Position& goal, std::uint64_t budget,
                                const search::Limits& lim);

}  // namespace tansaku::perm
