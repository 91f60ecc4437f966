// What the blocks family asks of the engine, for any code width: an optimal solution (the
// engine's bidirectional BFS when the goal fixes every piece, its BFS otherwise, or IDA*
// with the goal's distance bound), every optimal solution or their number (layered shortest
// paths), and the whole reachable space (the hashed layered explore). Every returned
// solution has been printed (pieces named, steps recovered) and verified.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "blocks/board.h"
#include "tansaku/core/count.h"
#include "tansaku/puzzles/puzzle.h"
#include "tansaku/search/ida_star.h"
#include "tansaku/search/limits.h"

namespace tansaku::blocks {

struct Request {
  const Board* board = nullptr;   // its `goal` is the goal
  Metric metric = Metric::Path;
  bool distinct = false;
  std::vector<Piece> start;       // labelled, checked against the board
  search::IdaOptions knobs;       // --weight, --beam-width (path_report.h ida_options)
};

struct Solution {
  bool found = false;             // false + exhausted: no solution exists
  bool exhausted = false;
  std::int64_t length = -1;
  std::vector<std::string> moves; // "Gdr"
  std::vector<std::vector<Piece>> positions;  // after each move
  std::vector<std::vector<std::string>> all;  // Want::all
  std::optional<mpz_class> count;             // Want::count / all
  std::uint64_t nodes = 0;
  std::string algorithm;          // the search that ran
  bool optimal = true;            // false: a non-optimal search's answer ...
  double bound = 0;               // ... within this factor of the optimum (> 0)
};

// algorithm: "" (automatic) or a name of solvers(); `want` (one, all, count) passes over the
// solvers that cannot (only the layered shortest paths list or count). max_all caps Want::all.
Solution solve(const Request& q, const std::string& algorithm, Want want, std::size_t max_all,
               const search::Limits& lim);

// The searches (--algorithm), in the order of the automatic choice.
std::vector<SolverSpec> solvers();

struct Exploration {
  std::vector<std::uint64_t> histogram;
  std::uint64_t states = 0;
  int depth = 0;
  std::vector<std::vector<Piece>> farthest;  // drawn with the start's labels, alike pieces in slot order
  std::uint64_t farthest_count = 0;
  std::uint64_t nodes = 0, table_bytes = 0;
  int code_bits = 0;
};

Exploration explore(const Request& q, std::size_t keep_farthest, const search::Limits& lim);

// `count` positions drawn uniformly from those reachable from q.start (alike pieces drawn in
// slot order), reproducible for a seed. Lists the whole reachable set: LimitError beyond
// lim.memory.
std::vector<std::vector<Piece>> random_positions(const Request& q, std::uint64_t seed, std::size_t count,
                                                 const search::Limits& lim);

// Bits of the state code (pieces x bits per anchor), and the words it takes.
int code_bits(const Board& b, bool distinct);

}  // namespace tansaku::blocks
