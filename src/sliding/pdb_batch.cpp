// `tansaku solve PUZZLE --batch FILE`: every instance of FILE (one a line: optionally its
// number, then the cells; '#' starts a comment) solved by the puzzle's own solve, one line
// per instance as it finishes (JSON Lines with --json), then the summary the CLI prints.
// Every line is parsed and checked before any search, so bad input prints nothing; a
// --timeout later on keeps the lines already printed (exit 3). The rows are kept in the
// summary too (SolveReport::rows: --html's table).
#include <sstream>

#include <fmt/format.h>

#include "sliding/pdb_solve.h"
#include "sliding/settings.h"
#include "tansaku/core/deadline.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/tokens.h"

namespace tansaku::sliding::pdb {

std::vector<BatchItem> parse_batch(const std::string& text, int cells, const std::string& file) {
  std::istringstream in(text);
  std::vector<BatchItem> items;
  std::string line;
  for (int no = 1; std::getline(in, line); ++no) {
    if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    auto tokens = split_state(line, static_cast<std::size_t>(cells));
    if (tokens.empty()) continue;
    BatchItem it{std::to_string(items.size() + 1), "", no};
    if (static_cast<int>(tokens.size()) == cells + 1) {
      it.id = tokens.front();
      tokens.erase(tokens.begin());
    } else if (static_cast<int>(tokens.size()) != cells) {
      throw InputError(fmt::format("{}:{}: {} tokens; expected {} cells, optionally after an instance number", file, no,
                                   tokens.size(), cells));
    }
    it.start = join(tokens);
    items.push_back(std::move(it));
  }
  if (items.empty()) throw InputError(fmt::format("batch file '{}' has no instances", file));
  return items;
}

SolveReport solve_batch(const Puzzle& p, int cells, const Options& o) {
  const std::string file = *o.settings<Settings>().batch;
  if (o.start || o.from) throw InputError("--batch takes the start states from the file: drop --start/--from");
  if (o.all || o.count) throw InputError("--batch solves one solution per instance: drop --all/--count");
  const std::vector<BatchItem> items = parse_batch(read_text_file(file, "batch file", o.memory, &o.deadline), cells, file);

  Stopwatch sw;
  Options one = o;
  one.values.erase("batch");
  Settings each = o.settings<Settings>();  // an instance is solved as a single solve
  each.batch.reset();
  one.settings_value = each;
  one.given.erase("batch");
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
  SolveReport sum;
  std::uint64_t solved = 0;
  std::int64_t total_length = 0;
  double setup = 0;
  std::uint64_t generated = 0;
  std::string algorithm;
  for (const BatchItem& it : items) {
    one.start = it.start;
    SolveReport r;
    Stopwatch each;
    try {
      r = p.solve(one);
      r.puzzle = p.name();  // the batch is the caller here: it fills what the CLI fills
      r.seconds = each.seconds();
    } catch (const InputError& e) {
      throw InputError(fmt::format("{}:{}: {}", file, it.line, e.what()));
    }
    if (sum.puzzle.empty()) sum.puzzle = r.puzzle, sum.goal = r.goal;
    algorithm = algorithm.empty() || algorithm == r.algorithm ? r.algorithm : "mixed";
    sum.nodes += r.nodes;
    if (r.solvable && r.length) ++solved, total_length += *r.length;
    setup += r.extra.value("setup_seconds", 0.0);
    generated += r.generated.value_or(0);
    json j = {{"instance", it.id}, {"puzzle", r.puzzle}, {"start", r.start}, {"goal", r.goal},
              {"solvable", r.solvable}, {"optimal", r.optimal}};
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
    if (o.json) {
      fmt::print("{}\n", j.dump(-1, ' ', false, json::error_handler_t::replace));
    } else {
      fmt::print("{}\n", r.solvable && r.length ? fmt::format("{:>4}: length {:>3}  nodes {:>12}  {:.3f} s", it.id, *r.length,
                                                           r.nodes, r.seconds)
                                             : fmt::format("{:>4}: no solution ({})", it.id, r.reason));
    }
    std::fflush(stdout);  // each result as it finishes: a later timeout loses none of them
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
  if (!sum.solvable) sum.reason = fmt::format("{} of {} instances have no solution", items.size() - solved, items.size());
  sum.text = fmt::format("batch {}: {} instances, {} solved, sum of lengths {}, {} nodes, {:.3f} s ({:.3f} s setup)\n",
                         file, items.size(), solved, total_length, sum.nodes, sum.seconds, setup);
  return sum;
}

}  // namespace tansaku::sliding::pdb
