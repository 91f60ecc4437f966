// Splitting state text into cell tokens, and the checked integer, RxC and trimming helpers that
// command-line parsing shares.
#include "tansaku/core/tokens.h"

#include <cctype>
#include <charconv>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/core/input.h"

namespace tansaku {

std::vector<std::string> split_state(std::string_view text, std::size_t cells) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',') {
      if (!cur.empty()) out.push_back(std::move(cur)), cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  if (out.size() == 1 && cells > 1 && out[0].size() == cells) {
    std::string one = out[0];
    out.clear();
    for (char c : one) out.emplace_back(1, c);
  }
  return out;
}

std::uint64_t parse_uint(std::string_view token, std::string_view what) {
  std::uint64_t v = 0;
  auto [p, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
  if (ec != std::errc() || p != token.data() + token.size() || token.empty())
    throw InputError(fmt::format("{}: '{}' is not a non-negative integer", what, printable(token)));
  return v;
}

std::int64_t parse_int(std::string_view token, std::string_view what) {
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
  if (ec != std::errc() || p != token.data() + token.size() || token.empty())
    throw InputError(fmt::format("{}: '{}' is not an integer", what, printable(token)));
  return v;
}

std::pair<int, int> parse_dims(std::string_view text, std::string_view what) {
  auto x = text.find_first_of("xX");
  if (x == std::string_view::npos) throw InputError(fmt::format("{}: '{}' is not of the form RxC", what, printable(text)));
  auto r = parse_uint(text.substr(0, x), what), c = parse_uint(text.substr(x + 1), what);
  if (r > 100000 || c > 100000) throw InputError(fmt::format("{}: '{}' is too large", what, printable(text)));
  return {static_cast<int>(r), static_cast<int>(c)};
}

std::string join(const std::vector<std::string>& tokens, std::string_view sep) {
  std::string s;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (i) s += sep;
    s += tokens[i];
  }
  return s;
}

std::string trim(std::string_view s) {
  std::size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return std::string(s.substr(a, b - a));
}

}  // namespace tansaku
