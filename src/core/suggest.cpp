// did_you_mean(): case-insensitive edit distance from the typed name to each candidate,
// suggesting the closest when it is near enough.
#include "tansaku/core/suggest.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace tansaku {

namespace {
std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

std::size_t edit_distance(const std::string& a0, const std::string& b0) {
  const std::string a = lower(a0), b = lower(b0);
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string did_you_mean(const std::string& typed, const std::vector<std::string>& candidates) {
  if (typed.empty()) return "";
  const std::string t = lower(typed);
  std::string best;
  std::size_t best_d = std::string::npos;
  for (const auto& c : candidates) {
    std::size_t d = edit_distance(typed, c);
    // A name's last part typed alone ("VARIANT" for "FAMILY:VARIANT") counts as close.
    const std::string lc = lower(c);
    if (auto colon = lc.find(':'); colon != std::string::npos)
      d = std::min(d, edit_distance(t, lc.substr(colon + 1)) + 1);
    if (d < best_d) best_d = d, best = c;
  }
  const std::size_t allowed = std::max<std::size_t>(2, typed.size() / 3);
  if (best_d <= allowed && best_d > 0) return fmt::format(" (did you mean '{}'?)", best);
  return "";
}

}  // namespace tansaku
