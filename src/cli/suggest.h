// "Did you mean ...?": the closest of a set of names to what the user typed, by edit
// distance, so a typo gets a pointer instead of a bare refusal.
#pragma once
#include <string>
#include <vector>

namespace tansaku {

// Levenshtein distance, case-insensitive.
std::size_t edit_distance(const std::string& a, const std::string& b);

// " (did you mean 'x'?)" when some candidate is close to `typed` (or contains it, or is
// contained in it), "" otherwise.
std::string did_you_mean(const std::string& typed, const std::vector<std::string>& candidates);

}  // namespace tansaku
