// Rules, board geometry and 0/1 grid text for the flip family.
#include "flip/board.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/core/input.h"

namespace tansaku::flip {

std::string Rule::mask_text() const {
  std::string s;
  for (int i = 0; i < 9; ++i) {
    if (i && i % 3 == 0) s += '/';
    s += mask[static_cast<std::size_t>(i)] ? '1' : '0';
  }
  return s;
}

bool Rule::point_symmetric() const {
  for (int i = 0; i < 9; ++i)
    if (mask[static_cast<std::size_t>(i)] != mask[static_cast<std::size_t>(8 - i)]) return false;
  return true;
}

Rule Rule::reflected() const {
  Rule r;
  for (int i = 0; i < 9; ++i) r.mask[static_cast<std::size_t>(i)] = mask[static_cast<std::size_t>(8 - i)];
  r.name = point_symmetric() ? name : r.mask_text();
  return r;
}

Rule parse_rule(const std::optional<std::string>& text) {
  Rule r;
  const std::string t = text ? *text : "eight";
  if (t == "eight" || t == "8" || t == "8-flip") {
    r.mask = {1, 1, 1, 1, 0, 1, 1, 1, 1};
    r.name = "eight";
    return r;
  }
  if (t == "lights-out" || t == "lightsout" || t == "cross") {
    r.mask = {0, 1, 0, 1, 1, 1, 0, 1, 0};
    r.name = "lights-out";
    return r;
  }
  // A 3x3 mask: rows separated by '/', whitespace or commas, or 9 characters in a row.
  std::vector<std::string> rows(1);
  for (char c : t) {
    if (c == '/' || c == ',' || std::isspace(static_cast<unsigned char>(c))) {
      if (!rows.back().empty()) rows.emplace_back();
    } else if (c == '0' || c == '1') {
      rows.back() += c;
    } else {
      throw InputError(fmt::format("--rule '{}': expected eight, lights-out or a 3x3 mask of 0/1 such as 111/101/111",
                                   t));
    }
  }
  if (rows.back().empty()) rows.pop_back();
  std::string all;
  for (auto& s : rows) all += s;
  const bool shaped = (rows.size() == 1 && all.size() == 9) ||
                      (rows.size() == 3 && std::all_of(rows.begin(), rows.end(), [](auto& s) { return s.size() == 3; })) ||
                      (rows.size() == 9 && all.size() == 9);
  if (!shaped) throw InputError(fmt::format("--rule '{}': a mask must be 3x3 (for example 111/101/111)", t));
  for (int i = 0; i < 9; ++i) r.mask[static_cast<std::size_t>(i)] = all[static_cast<std::size_t>(i)] == '1';
  if (std::none_of(r.mask.begin(), r.mask.end(), [](bool b) { return b; }))
    throw InputError(fmt::format("--rule '{}': an empty mask toggles nothing", t));
  r.name = r.mask_text();
  if (r.name == "111/101/111") r.name = "eight";
  if (r.name == "010/111/010") r.name = "lights-out";
  return r;
}

Board::Board(int rows, int cols, bool torus, Rule rule) : rows_(rows), cols_(cols), torus_(torus), rule_(std::move(rule)) {
  for (int dr = -1; dr <= 1; ++dr)
    for (int dc = -1; dc <= 1; ++dc) {
      if (!rule_.at(dr, dc)) continue;
      if (!torus_) {
        offs_.emplace_back(dr, dc);
        continue;
      }
      std::pair<int, int> o{((dr % rows_) + rows_) % rows_, ((dc % cols_) + cols_) % cols_};
      if (std::find(offs_.begin(), offs_.end(), o) == offs_.end()) offs_.push_back(o);
    }
}

Bits Board::parse_grid(std::string_view text, std::string_view what) const {
  std::vector<std::string> tokens(1);
  for (char c : text) {
    if (c == '/' || c == ',' || std::isspace(static_cast<unsigned char>(c))) {
      if (!tokens.back().empty()) tokens.emplace_back();
    } else if (c == '0' || c == '1') {
      tokens.back() += c;
    } else {
      throw InputError(fmt::format("{}: '{}' is not 0 or 1 (a grid is rows of 0/1)", what,
                                   printable(std::string_view(&c, 1))));
    }
  }
  if (tokens.back().empty()) tokens.pop_back();
  const auto n = static_cast<std::size_t>(cells());
  std::size_t total = 0;
  for (auto& s : tokens) total += s.size();
  const bool rows_ok = tokens.size() == static_cast<std::size_t>(rows_) &&
                       std::all_of(tokens.begin(), tokens.end(), [&](auto& s) { return s.size() == static_cast<std::size_t>(cols_); });
  const bool cells_ok = tokens.size() == n && total == n;
  const bool one_ok = tokens.size() == 1 && total == n;
  if (!(rows_ok || cells_ok || one_ok)) {
    if (total != n)
      throw InputError(fmt::format("{} has {} cells; a {}x{} board needs {}", what, total, rows_, cols_, n));
    throw InputError(fmt::format("{}: give {} rows of {} characters 0/1 (or {} characters)", what, rows_, cols_, n));
  }
  Bits x(n);
  std::size_t i = 0;
  for (auto& s : tokens)
    for (char c : s) x.set(i++, c == '1');
  return x;
}

std::string Board::format_grid(const Bits& x) const {
  std::string s;
  s.reserve(static_cast<std::size_t>(cells() + rows_));
  for (int r = 0; r < rows_; ++r) {
    if (r) s += '/';
    for (int c = 0; c < cols_; ++c) s += x.get(static_cast<std::size_t>(r) * cols_ + c) ? '1' : '0';
  }
  return s;
}

std::string Board::picture(const Bits& x, std::string_view on, std::string_view off) const {
  std::string s;
  for (int r = 0; r < rows_; ++r) {
    s += ' ';
    for (int c = 0; c < cols_; ++c) {
      s += ' ';
      s += x.get(static_cast<std::size_t>(r) * cols_ + c) ? on : off;
    }
    s += '\n';
  }
  return s;
}

std::string Board::numbering() const {
  const int w = static_cast<int>(std::to_string(cells() - 1).size());
  std::string s;
  for (int r = 0; r < rows_; ++r) {
    s += ' ';
    for (int c = 0; c < cols_; ++c) s += fmt::format(" {:>{}}", static_cast<std::int64_t>(r) * cols_ + c, w);
    s += '\n';
  }
  return s;
}

}  // namespace tansaku::flip
