// Printing reports: human text by default, one JSON object with --json.
#pragma once
#include "tansaku/puzzles/puzzle.h"

namespace tansaku {

void print_list(bool as_json);
json list_json();  // {"puzzles": [{"name", "family", "summary"}, ...]}
void print_show(const ShowReport& r, bool as_json);
void print_solve(const SolveReport& r, bool as_json);
void print_explore(const ExploreReport& r, bool as_json);
json solve_json(const SolveReport& r);
json explore_json(const ExploreReport& r);
json random_json(const std::string& puzzle, std::uint64_t seed, const std::vector<std::string>& positions);

}  // namespace tansaku
