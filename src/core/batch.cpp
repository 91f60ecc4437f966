// solve --batch FILE for every family (tansaku/puzzles/batch.h): the file's lines read by
// the family's rule, each instance checked before the first is solved, the rows printed as
// they finish and kept in the summary (SolveReport::rows: --html's table).
#include "tansaku/puzzles/batch.h"

#include <sstream>

#include <fmt/format.h>

#include "tansaku/core/deadline.h"
#include "tansaku/core/error.h"

namespace tansaku {

std::vector<BatchItem> parse_batch(const std::string& text, const std::string& file,
                                   const std::function<void(const std::string& line, BatchItem& item)>& read) {
  std::istringstream in(text);
  std::vector<BatchItem> items;
  std::string line;
  for (int no = 1; std::getline(in, line); ++no) {
    if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    if (line.find_first_not_of(" \t\r,") == std::string::npos) continue;
    BatchItem it{std::to_string(items.size() + 1), "", no};
    try {
      read(line, it);
    } catch (const InputError& e) {
      throw InputError(fmt::format("{}:{}: {}", file, no, e.what()));
    }
    items.push_back(std::move(it));
  }
  if (items.empty()) throw InputError(fmt::format("batch file '{}' has no instances", file));
  return items;
}

void check_batch_options(const Options& o) {
  if (o.start || o.from) throw InputError("--batch takes the start states from the file: drop --start/--from");
  if (o.all || o.count) throw InputError("--batch solves one solution per instance: drop --all/--count");
}

SolveReport solve_batch(const Puzzle& p, const Options& each, const std::string& file,
                        const std::vector<BatchItem>& items) {
  check_batch_options(each);
  Stopwatch sw;
  Options one = each;
  one.given.insert("start");
  // Every instance is checked before the first is solved, so bad input prints nothing.
  for (const BatchItem& it : items) {
    one.start = it.start;
    try {
      (void)p.show(one);
    } catch (const InputError& e) {
      throw InputError(fmt::format("{}:{}: {}", file, it.line, e.what()));
    }
  }
  const std::shared_ptr<void> hold = p.hold_tables();  // tables loaded once serve every instance
  SolveReport sum;
  std::uint64_t solved = 0;
  std::int64_t total_length = 0;
  double setup = 0;
  std::uint64_t generated = 0;
  std::string algorithm;
  for (const BatchItem& it : items) {
    one.start = it.start;
    SolveReport r;
    Stopwatch clock;
    try {
      r = p.solve(one);
      r.puzzle = p.name();  // the batch is the caller here: it fills what the CLI fills
      r.seconds = clock.seconds();
    } catch (const InputError& e) {
      throw InputError(fmt::format("{}:{}: {}", file, it.line, e.what()));
    }
    if (sum.puzzle.empty()) sum.puzzle = r.puzzle, sum.goal = r.goal;
    algorithm = algorithm.empty() || algorithm == r.algorithm ? r.algorithm : "mixed";
    sum.nodes += r.nodes;
    if (r.solvable && r.length) ++solved, total_length += *r.length;
    setup += r.extra.value("setup_seconds", 0.0);
    generated += r.generated.value_or(0);
    json j = {{"instance", it.id}, {"puzzle", r.puzzle},     {"start", r.start},
              {"goal", r.goal},    {"solvable", r.solvable}, {"optimal", r.optimal}};
    j["length"] = r.length ? json(*r.length) : json(nullptr);
    j["moves"] = r.moves;
    j["nodes"] = r.nodes;
    j["seconds"] = r.seconds;
    j["algorithm"] = r.algorithm;
    if (!r.reason.empty()) j["reason"] = r.reason;
    if (r.generated) j["generated"] = *r.generated;
    if (!r.heuristic.empty()) j["heuristic"] = r.heuristic;
    for (const auto& [k, v] : r.extra.items())
      if (k != "cells") j[k] = v;
    if (each.json) {
      fmt::print("{}\n", j.dump(-1, ' ', false, json::error_handler_t::replace));
    } else {
      fmt::print("{}\n", r.solvable && r.length ? fmt::format("{:>4}: length {:>3}  nodes {:>12}  {:.3f} s", it.id,
                                                              *r.length, r.nodes, r.seconds)
                                                : fmt::format("{:>4}: no solution ({})", it.id, r.reason));
    }
    std::fflush(stdout);               // each result as it finishes: a later timeout loses none of them
    sum.rows.push_back(std::move(j));  // the batch page (--html)
  }
  sum.solvable = solved == items.size();
  sum.optimal = true;
  sum.algorithm = algorithm;
  sum.seconds = sw.seconds();
  sum.extra["summary"] = true;
  sum.extra["batch"] = file;
  sum.extra["instances"] = items.size();
  sum.extra["solved"] = solved;
  sum.extra["sum_length"] = total_length;
  sum.extra["setup_seconds"] = setup;
  sum.generated = generated;
  if (!sum.solvable)
    sum.reason = fmt::format("{} of {} instances have no solution", items.size() - solved, items.size());
  sum.text = fmt::format("batch {}: {} instances, {} solved, sum of lengths {}, {} nodes, {:.3f} s ({:.3f} s setup)\n",
                         file, items.size(), solved, total_length, sum.nodes, sum.seconds, setup);
  return sum;
}

}  // namespace tansaku
