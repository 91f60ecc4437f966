// Reading and writing knight-swap positions (swap_instance.h).
#include "knights/swap_instance.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/core/tokens.h"

namespace tansaku::knights {
namespace {

bool numeric(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}
// "00" and "." are the empty square "0"; "01" is "1".
std::string canonical_label(const std::string& t) {
  if (t == ".") return "0";
  if (!numeric(t)) return t;
  auto p = t.find_first_not_of('0');
  return p == std::string::npos ? "0" : t.substr(p);
}
bool label_less(const std::string& a, const std::string& b) {
  if (numeric(a) && numeric(b) && a.size() != b.size()) return a.size() < b.size();
  return a < b;
}

// The start with its two armies exchanged (the puzzle's usual goal); "" unless it holds two.
std::string exchanged(const std::vector<std::string>& tokens) {
  std::vector<std::string> labels;
  for (const auto& t : tokens) {
    const std::string c = canonical_label(t);
    if (c != "0" && std::find(labels.begin(), labels.end(), c) == labels.end()) labels.push_back(c);
  }
  if (labels.size() != 2) return "";
  std::vector<std::string> out;
  for (const auto& t : tokens) {
    const std::string c = canonical_label(t);
    out.push_back(c == labels[0] ? labels[1] : c == labels[1] ? labels[0] : c);
  }
  return join(out);
}

}  // namespace

std::vector<std::string> position_tokens(const Board& b, const std::string& text, const std::string& what) {
  auto tokens = split_state(text, static_cast<std::size_t>(b.squares()));
  if (static_cast<std::int64_t>(tokens.size()) != b.squares())
    throw InputError(
        fmt::format("{} has {} tokens; a {}x{} board needs {}", what, tokens.size(), b.rows(), b.cols(), b.squares()));
  return tokens;
}

Armies make_armies(const std::vector<std::string>& tokens) {
  std::map<std::string, int, decltype(&label_less)> count(&label_less);
  for (const auto& t : tokens) ++count[canonical_label(t)];
  Armies a;
  a.names.push_back("0");
  a.counts.push_back(count.count("0") ? count["0"] : 0);
  for (const auto& [name, c] : count)
    if (name != "0") a.names.push_back(name), a.counts.push_back(c);
  return a;
}

Cells parse_position(const Board& b, const Armies& a, const std::string& text, const std::string& what) {
  const auto tokens = position_tokens(b, text, what);
  Cells cells(tokens.size());
  std::vector<int> seen(a.names.size(), 0);
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string t = canonical_label(tokens[i]);
    auto it = std::find(a.names.begin(), a.names.end(), t);
    if (it == a.names.end())
      throw InputError(fmt::format("{}: piece '{}' is not in the other position", what, tokens[i]));
    cells[i] = static_cast<std::uint8_t>(it - a.names.begin());
    ++seen[cells[i]];
  }
  for (std::size_t k = 0; k < seen.size(); ++k)
    if (seen[k] != a.counts[k])
      throw InputError(fmt::format("{}: '{}' occurs {} times, but {} times in the other position", what, a.names[k],
                                   seen[k], a.counts[k]));
  return cells;
}

Instance read_instance(const Board& b, const std::string& name, const Options& o, bool need_start,
                       const std::string& def_start, const std::string& def_goal) {
  Instance inst;
  std::string goal = o.goal ? *o.goal : "";
  std::string start = o.start ? *o.start : "";
  if (!o.start && !o.goal) start = def_start, goal = def_goal;
  if (o.start && !o.goal) {
    goal = exchanged(position_tokens(b, start, "start"));
    if (goal.empty()) throw InputError("give --goal: the start does not hold exactly two armies to exchange");
  }
  if (goal.empty()) throw InputError(fmt::format("{} has no default position: give --start and --goal", name));
  inst.armies = make_armies(position_tokens(b, goal, "goal"));
  if (inst.armies.names.size() > 64) throw InputError("at most 63 different pieces");
  inst.goal = parse_position(b, inst.armies, goal, "goal");
  if (!start.empty()) {
    inst.start = parse_position(b, inst.armies, start, "start");
    inst.has_start = true;
  } else if (need_start) {
    throw InputError(fmt::format("{}: give --start", name));
  }
  return inst;
}

std::string format_cells(const Armies& a, const Cells& cells) {
  std::vector<std::string> t;
  for (auto c : cells) t.push_back(a.names[c]);
  return join(t);
}

std::string cells_picture(const Board& b, const Armies& a, const Cells& cells) {
  std::vector<std::string> t;
  for (auto c : cells) t.push_back(c ? a.names[c] : ".");
  return b.picture(t);
}

mpz_class arrangement_count(const Armies& a) {
  mpz_class total = 1, b;
  unsigned long left = 0;
  for (int c : a.counts) left += static_cast<unsigned long>(c);
  for (int c : a.counts) {  // the multinomial, one binomial C(left, c) at a time
    mpz_bin_uiui(b.get_mpz_t(), left, static_cast<unsigned long>(c));
    total *= b;
    left -= static_cast<unsigned long>(c);
  }
  return total;
}

}  // namespace tansaku::knights
