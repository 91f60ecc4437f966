// Parsing of states given on the command line: whitespace- or comma-separated tokens in cell
// order, or the compact form "867254301" when every label is one character.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tansaku {

// Splits on whitespace and commas. If that yields a single token whose length equals
// `cells` (and cells > 1), splits it into one-character tokens.
std::vector<std::string> split_state(std::string_view text, std::size_t cells = 0);
// Parses a non-negative integer token; throws InputError naming `what` otherwise.
std::uint64_t parse_uint(std::string_view token, std::string_view what);
std::int64_t parse_int(std::string_view token, std::string_view what);
// "3x4" -> {3, 4}; throws InputError otherwise.
std::pair<int, int> parse_dims(std::string_view text, std::string_view what);
// `s` without leading and trailing whitespace.
std::string trim(std::string_view s);
// Joins with single spaces.
std::string join(const std::vector<std::string>& tokens, std::string_view sep = " ");

}  // namespace tansaku
