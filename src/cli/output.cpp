// The printers behind `list`, `show`, `solve`, `explore` and `random`: each report as human
// text, or as the one JSON object --json prints (the contract in DESIGN.md).
#include "cli/output.h"

#include <fmt/format.h>

#include "tansaku/puzzles/registry.h"

namespace tansaku {

namespace {
std::string move_text(const json& moves) {
  std::string s;
  for (const auto& m : moves) {
    if (!s.empty()) s += ' ';
    s += m.is_string() ? m.get<std::string>() : m.dump();
  }
  return s;
}
// Inputs are checked to be UTF-8 (core/input.h, main.cpp); should a byte that is not slip
// through, it is replaced (U+FFFD) rather than failing the whole report.
void print_json(const json& j) { fmt::print("{}\n", j.dump(-1, ' ', false, json::error_handler_t::replace)); }
// --all listed fewer solutions than --count found (a listing cut at its memory bound).
bool truncated(const SolveReport& r) {
  return r.solutions && r.count && r.count->is_number_unsigned() && r.solutions->size() < r.count->get<std::uint64_t>();
}
}  // namespace

json list_json() {
  json arr = json::array();
  for (const auto& f : families())
    for (const auto& b : f.builtins) arr.push_back({{"name", b.name}, {"family", f.prefix}, {"summary", b.summary}});
  return json{{"puzzles", arr}};
}

void print_list(bool as_json) {
  const json all = list_json();
  if (as_json) {
    print_json(all);
    return;
  }
  const json& arr = all["puzzles"];
  std::size_t w = 0;
  for (const auto& p : arr) w = std::max(w, p["name"].get<std::string>().size());
  for (const auto& p : arr) fmt::print("{:<{}}  {}\n", p["name"].get<std::string>(), w, p["summary"].get<std::string>());
}

void print_show(const ShowReport& r, bool as_json) {
  if (as_json) return print_json(r.info);
  fmt::print("{}", r.text);
  if (!r.text.empty() && r.text.back() != '\n') fmt::print("\n");
}

// The typed search figures (puzzle.h SearchFigures) under their JSON keys; an explore's
// `nodes` only when its solver counted any.
static void add_figures(json& j, const SearchFigures& f, bool explore) {
  if (explore && f.nodes != 0) j["nodes"] = f.nodes;
  if (f.generated) j["generated"] = *f.generated;
  if (f.table_bytes) j["table_bytes"] = *f.table_bytes;
  if (!f.heuristic.empty()) j["heuristic"] = f.heuristic;
}
// The machine figures, after the family's keys (where the families wrote them before).
static void add_machine(json& j, const SearchFigures& f) {
  if (f.peak_rss_bytes) j["peak_rss_bytes"] = *f.peak_rss_bytes;
  if (f.threads) j["threads"] = *f.threads;
}

// A family's extra keys: added, never replacing a key the report already set.
static void add_extra(json& j, const json& extra) {
  for (const auto& [k, v] : extra.items())
    if (!j.contains(k)) j[k] = v;
}

json solve_json(const SolveReport& r) {
  json j = {{"puzzle", r.puzzle}, {"start", r.start}, {"goal", r.goal}, {"solvable", r.solvable},
            {"optimal", r.optimal}};
  j["length"] = r.length ? json(*r.length) : json(nullptr);
  j["moves"] = r.moves;
  j["nodes"] = r.nodes;
  j["seconds"] = r.seconds;
  if (!r.algorithm.empty()) j["algorithm"] = r.algorithm;
  if (r.solutions) j["solutions"] = *r.solutions;
  if (r.count) j["count"] = *r.count;
  if (!r.reason.empty()) j["reason"] = r.reason;
  if (r.bound) j["bound"] = *r.bound;
  if (r.lower_bound) j["lower_bound"] = *r.lower_bound;
  add_figures(j, r, false);
  add_extra(j, r.extra);
  add_machine(j, r);
  if (truncated(r)) j["truncated"] = true, j["listed"] = r.solutions->size();
  return j;
}

void print_solve(const SolveReport& r, bool as_json) {
  if (as_json) return print_json(solve_json(r));
  fmt::print("puzzle:    {}\n", r.puzzle);
  if (!r.start.empty()) fmt::print("start:     {}\n", r.start);
  if (!r.goal.empty()) fmt::print("goal:      {}\n", r.goal);
  if (!r.algorithm.empty()) fmt::print("algorithm: {}\n", r.algorithm);
  if (!r.solvable) {
    fmt::print("no solution: {}\n", r.reason.empty() ? "proved unsolvable" : r.reason);
  } else {
    if (r.length)
      fmt::print("length:    {}{}\n", *r.length,
                 r.optimal ? " (optimal)"
                 : r.bound ? fmt::format(" (at most {} times the optimum, so the optimum is at least {})", *r.bound,
                                         r.lower_bound.value_or(0))
                           : " (not proved optimal)");
    if (!r.moves.empty()) fmt::print("moves:     {}\n", move_text(r.moves));
    if (r.count) fmt::print("count:     {}\n", r.count->is_string() ? r.count->get<std::string>() : r.count->dump());
    if (r.solutions) {
      fmt::print("solutions: {}{}\n", r.solutions->size(),
                 truncated(r) ? fmt::format(" listed of {} (the listing is truncated)", r.count->get<std::uint64_t>()) : "");
      for (const auto& s : *r.solutions) fmt::print("  {}\n", s.is_array() ? move_text(s) : s.dump());
    }
  }
  fmt::print("nodes:     {}\ntime:      {:.3f} s\n", r.nodes, r.seconds);
  if (!r.text.empty()) fmt::print("{}{}", r.text, r.text.back() == '\n' ? "" : "\n");
}

json explore_json(const ExploreReport& r) {
  json j = {{"puzzle", r.puzzle}, {"from", r.from},        {"states", r.states},
            {"depth", r.depth},   {"histogram", r.histogram}, {"farthest", r.farthest},
            {"farthest_count", r.farthest_count}, {"seconds", r.seconds}};
  if (!r.algorithm.empty()) j["algorithm"] = r.algorithm;
  add_figures(j, r, true);
  add_extra(j, r.extra);
  add_machine(j, r);
  return j;
}

json random_json(const std::string& puzzle, std::uint64_t seed, const std::vector<std::string>& positions) {
  return json{{"puzzle", puzzle}, {"seed", seed}, {"positions", positions}};
}

void print_explore(const ExploreReport& r, bool as_json) {
  if (as_json) return print_json(explore_json(r));
  fmt::print("puzzle:    {}\nfrom:      {}\nstates:    {}\ndepth:     {}\n", r.puzzle, r.from, r.states, r.depth);
  fmt::print("histogram:\n");
  for (std::size_t i = 0; i < r.histogram.size(); ++i) fmt::print("  {:>4}: {}\n", i, r.histogram[i]);
  fmt::print("farthest ({} at depth {}{}):\n", r.farthest_count, r.depth,
             r.farthest.size() < r.farthest_count ? fmt::format(", first {} shown", r.farthest.size()) : "");
  for (const auto& s : r.farthest) fmt::print("  {}\n", s);
  if (!r.algorithm.empty()) fmt::print("algorithm: {}\n", r.algorithm);
  fmt::print("time:      {:.3f} s\n", r.seconds);
  if (!r.text.empty()) fmt::print("{}{}", r.text, r.text.back() == '\n' ? "" : "\n");
}

}  // namespace tansaku
