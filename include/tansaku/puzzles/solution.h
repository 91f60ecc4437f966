// A solution in the family's own types, and everything the base makes of it: the family's
// solver returns its start, goal and moves as it holds them; the base verifies the moves once
// by replaying them, writes the report's start, goal and moves through the family's notation,
// and draws the pictures from the same typed value, so no family reads its own output back.
#pragma once
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "tansaku/puzzles/path_report.h"
#include "tansaku/puzzles/puzzle.h"

namespace tansaku {

// A family's rules over its own types, given as a struct with these members (its instance
// data: the board, the labels):
//   using Position = ...; using Move = ...;   (Position has ==)
//   std::string state(const Position&) const;                     // the notation --start takes
//   json move(const Position& before, const Move&) const;         // the move as `moves` writes it
//   std::optional<Position> apply(const Position&, const Move&) const;  // nullopt: not legal here
//   std::string frame(const Position&) const;                     // the start, drawn (SVG)
//   std::string frame(const Position& before, const Move&, const Position& after) const;  // a step
// and, where the goal is not one position (a peg anywhere, a partial picture):
//   bool reached(const Position&, const Position& goal) const;    // default: ==
template <class Rules>
struct Solution final : TypedSolution {
  using Position = typename Rules::Position;
  using Move = typename Rules::Move;
  Rules rules;
  Position start, goal;
  std::vector<Move> moves;  // one optimal solution; empty on an unsolvable start
  Solution(Rules r, Position s, Position g) : rules(std::move(r)), start(std::move(s)), goal(std::move(g)) {}

  // The positions from the start through every move (verify() has checked them).
  std::vector<Position> positions() const {
    std::vector<Position> out{start};
    for (const Move& m : moves) out.push_back(*rules.apply(out.back(), m));
    return out;
  }

  bool reached(const Position& p) const {
    if constexpr (requires { rules.reached(p, goal); }) return rules.reached(p, goal);
    else return p == goal;
  }

  // Replays `ms` from the start: each move legal, the last position the goal; returns the
  // moves as printed. Throws std::logic_error otherwise (a solver's bug, never the user's).
  json verify(const std::vector<Move>& ms) const {
    json out = json::array();
    Position p = start;
    for (std::size_t i = 0; i < ms.size(); ++i) {
      std::optional<Position> next = rules.apply(p, ms[i]);
      if (!next) throw std::logic_error(fmt::format("solution check: move {} is not legal", i + 1));
      out.push_back(rules.move(p, ms[i]));
      p = std::move(*next);
    }
    if (!reached(p)) throw std::logic_error("solution check: the moves do not reach the goal");
    return out;
  }
};

// The report's start and goal, written through the family's notation, and the typed solution
// the report keeps (its moves filled by report_solution).
template <class Rules>
std::shared_ptr<Solution<Rules>> typed_solution(Rules rules, typename Rules::Position start,
                                                typename Rules::Position goal, SolveReport& r) {
  auto s = std::make_shared<Solution<Rules>>(std::move(rules), std::move(start), std::move(goal));
  r.start = s->rules.state(s->start);
  r.goal = s->rules.state(s->goal);
  r.solution = s;
  return s;
}

// An engine path search's result into the report (path_report.h report_path), every solution
// verified once by replaying it through `s`'s rules; the first one is kept typed.
template <class Rules>
void report_solution(const search::PathResult<typename Rules::Move>& res, const Options& o,
                     const std::string& unreachable, Solution<Rules>& s, SolveReport& r) {
  using Move = typename Rules::Move;
  report_path<Move>(
      res, o, unreachable, [&](const std::vector<Move>& ms) { return s.verify(ms); }, r);
  if (res.found) s.moves = res.moves;
}

// The report's typed solution, when it is a Solution<Rules> (null otherwise: a batch, a
// report from elsewhere).
template <class Rules>
const Solution<Rules>* solution_of(const SolveReport& r) {
  return dynamic_cast<const Solution<Rules>*>(r.solution.get());
}

// The pictures of a typed solution: the start, then one frame per move, captioned by the
// move as `moves` writes it. No frames for a report without one.
template <class Rules>
Drawing draw_solution_of(const SolveReport& r) {
  Drawing d;
  const Solution<Rules>* s = solution_of<Rules>(r);
  if (!s) return d;
  d.frames.push_back(s->rules.frame(s->start));
  typename Rules::Position p = s->start;
  for (const auto& m : s->moves) {
    typename Rules::Position next = *s->rules.apply(p, m);
    d.frames.push_back(s->rules.frame(p, m, next));
    const json label = s->rules.move(p, m);
    d.labels.push_back(label.is_string() ? label.template get<std::string>() : label.dump());
    p = std::move(next);
  }
  return d;
}

}  // namespace tansaku
