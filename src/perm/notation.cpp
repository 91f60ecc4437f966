// Writing and reading positions and move cycles (see notation.h).
#include "perm/notation.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/tokens.h"

namespace tansaku::perm {

namespace {
bool is_number(const std::string& t) { return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; }); }
}  // namespace

Position parse_position(const Definition& d, const std::string& text, const std::string& what) {
  if (!text.empty() && text[0] == '@') {
    const std::string file = text.substr(1);
    auto all = parse_scrambles(d, read_text_file(file, what), file);
    if (all.empty()) throw InputError(fmt::format("{}: {} holds no ScrambleState", what, file));
    return all.front().second;
  }
  Position p = d.solved;
  std::vector<std::string> tokens;
  for (auto& t : split_state(text))
    if (t != "/" && t != "|" && t != ";") tokens.push_back(t);
  std::vector<bool> given(d.sets.size(), false);
  std::size_t i = 0;
  while (i < tokens.size()) {
    int s = 0;
    if (is_number(tokens[i])) {
      if (d.sets.size() != 1 || i != 0)
        throw InputError(fmt::format("{}: expected a set name ({}), found '{}'", what, [&] {
          std::string n;
          for (const auto& sd : d.sets) n += (n.empty() ? "" : ", ") + sd.name;
          return n;
        }(), tokens[i]));
    } else {
      s = d.set_index(tokens[i]);
      if (s < 0) throw InputError(fmt::format("{}: unknown set '{}'", what, tokens[i]));
      ++i;
    }
    if (given[static_cast<std::size_t>(s)]) throw InputError(fmt::format("{}: set '{}' is given twice", what, d.sets[static_cast<std::size_t>(s)].name));
    given[static_cast<std::size_t>(s)] = true;
    const auto& sd = d.sets[static_cast<std::size_t>(s)];
    std::size_t count = 0;
    while (i + count < tokens.size() && is_number(tokens[i + count])) ++count;
    const std::size_t n = static_cast<std::size_t>(sd.size);
    if (count != n && !(sd.omod > 1 && count == 2 * n) && i + count < tokens.size() &&
        d.set_index(tokens[i + count]) < 0)  // a stray token, not the next set's name
      throw InputError(
          fmt::format("{}: set '{}': '{}' is not a piece number or orientation", what, sd.name, tokens[i + count]));
    if (count != n && !(sd.omod > 1 && count == 2 * n))
      throw InputError(fmt::format("{}: set '{}' needs {} piece numbers{}, found {} numbers", what, sd.name, n,
                                   sd.omod > 1 ? fmt::format(" (and optionally {} orientations)", n) : "", count));
    std::vector<int> want, got;
    for (std::size_t j = 0; j < n; ++j) {
      const int v = std::stoi(tokens[i + j]);
      auto it = std::find(sd.numbers.begin(), sd.numbers.end(), v);
      if (it == sd.numbers.end()) throw InputError(fmt::format("{}: set '{}' has no piece {}", what, sd.name, v));
      const auto pos = static_cast<std::size_t>(sd.offset) + j;
      p.lab[pos] = static_cast<std::uint8_t>(it - sd.numbers.begin());
      p.ori[pos] = 0;
      if (count == 2 * n) {
        const int o = std::stoi(tokens[i + n + j]);
        if (o >= sd.omod)
          throw InputError(fmt::format("{}: set '{}': orientation {} is out of range 0..{}", what, sd.name, o, sd.omod - 1));
        p.ori[pos] = static_cast<std::uint8_t>(o);
      }
      got.push_back(p.lab[pos]);
      want.push_back(d.solved.lab[pos]);
    }
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    if (want != got)
      throw InputError(fmt::format("{}: set '{}' must hold the pieces of the Solved block (each as often)", what, sd.name));
    i += count;
  }
  return p;
}

std::string format_position(const Definition& d, const Position& p) {
  std::string s;
  for (const auto& sd : d.sets) {
    if (!s.empty()) s += ' ';
    s += sd.name;
    for (int j = 0; j < sd.size; ++j) s += fmt::format(" {}", sd.numbers[p.lab[static_cast<std::size_t>(sd.offset + j)]]);
    if (sd.omod > 1)
      for (int j = 0; j < sd.size; ++j) s += fmt::format(" {}", p.ori[static_cast<std::size_t>(sd.offset + j)]);
  }
  return s;
}

std::string format_cycles(const Definition& d, const Perm& m) {
  std::string out;
  for (const auto& sd : d.sets) {
    // The piece on position k goes to dest[k]; it turns by the twist of its destination.
    std::vector<int> dest(static_cast<std::size_t>(sd.size));
    for (int i = 0; i < sd.size; ++i) dest[static_cast<std::size_t>(m.perm[static_cast<std::size_t>(sd.offset + i)] - sd.offset)] = i;
    std::vector<bool> seen(static_cast<std::size_t>(sd.size), false);
    std::string cycles;
    for (int k = 0; k < sd.size; ++k) {
      if (seen[static_cast<std::size_t>(k)]) continue;
      std::vector<int> cyc;
      for (int j = k; !seen[static_cast<std::size_t>(j)]; j = dest[static_cast<std::size_t>(j)]) seen[static_cast<std::size_t>(j)] = true, cyc.push_back(j);
      bool twisted = false;
      for (int j : cyc) twisted = twisted || m.twist[static_cast<std::size_t>(sd.offset + dest[static_cast<std::size_t>(j)])];
      if (cyc.size() == 1 && !twisted) continue;
      std::string c;
      for (int j : cyc) {
        const int t = m.twist[static_cast<std::size_t>(sd.offset + dest[static_cast<std::size_t>(j)])];
        c += fmt::format("{}{}{}", c.empty() ? "" : " ", j + 1, t ? fmt::format("+{}", t) : "");
      }
      cycles += " (" + c + ")";
    }
    if (!cycles.empty()) out += (out.empty() ? "" : "  ") + sd.name + cycles;
  }
  return out.empty() ? "identity" : out;
}

std::string companion_scrambles(const Definition& d) {
  std::filesystem::path p(d.file);
  p.replace_extension(".scr");
  return path_present(p.string()) ? p.string() : "";
}

}  // namespace tansaku::perm
