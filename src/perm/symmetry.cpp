// Symmetries for conjugate lookups (see symmetry.h).
#include "perm/symmetry.h"

#include <algorithm>
#include <filesystem>
#include <sstream>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/pdb/table_file.h"

namespace tansaku::perm {

std::vector<SymmetryDef> parse_symmetries(const Definition& d, const std::string& text, const std::string& file) {
  std::vector<SymmetryDef> out;
  std::vector<std::string> lines;
  {
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) {
      if (auto h = l.find('#'); h != std::string::npos) l.resize(h);
      lines.push_back(l);
    }
  }
  std::size_t i = 0;
  auto bad = [&](const std::string& why) { return InputError(fmt::format("{}:{}: {}", file, i + 1, why)); };
  auto words = [](const std::string& l) {
    std::istringstream ls(l);
    std::vector<std::string> w;
    for (std::string x; ls >> x;) w.push_back(x);
    return w;
  };
  auto numbers = [&](const std::string& l, int n, int lo, int hi) {
    std::vector<int> v;
    for (const auto& w : words(l)) {
      if (w.empty() || w.size() > 4 || w.find_first_not_of("0123456789") != std::string::npos) throw bad("expected numbers");
      v.push_back(std::stoi(w));
      if (v.back() < lo || v.back() > hi) throw bad("a number out of range");
    }
    if (static_cast<int>(v.size()) != n) throw bad(fmt::format("expected {} numbers", n));
    return v;
  };
  for (; i < lines.size(); ++i) {
    const auto w = words(lines[i]);
    if (w.empty()) continue;
    if ((w[0] != "Symmetry" && w[0] != "Reduce") || w.size() != 2) throw bad("expected 'Symmetry NAME' or 'Reduce NAME'");
    Perm p = d.identity();
    const std::string name = w[1];
    const bool lookup = w[0] == "Symmetry";
    for (++i;; ++i) {
      if (i >= lines.size()) throw bad(fmt::format("a {} block without End", lookup ? "Symmetry" : "Reduce"));
      const auto b = words(lines[i]);
      if (b.empty()) continue;
      if (b[0] == "End") break;
      if (b[0] == "Mirror" && b.size() == 1 && d.set_index("Mirror") < 0) {  // a reflection (definition.h)
        p.mirror = true;
        continue;
      }
      const int s = d.set_index(b[0]);
      if (s < 0 || b.size() != 1) throw bad(fmt::format("unknown set '{}'", printable(b[0])));
      const SetDef& sd = d.sets[static_cast<std::size_t>(s)];
      if (++i >= lines.size()) throw bad("a set without its permutation row");
      const auto perm = numbers(lines[i], sd.size, 1, sd.size);
      std::vector<bool> seen(static_cast<std::size_t>(sd.size), false);
      for (int x : perm) {
        if (seen[static_cast<std::size_t>(x - 1)]) throw bad("a row that is not a permutation");
        seen[static_cast<std::size_t>(x - 1)] = true;
      }
      std::vector<int> twist(static_cast<std::size_t>(sd.size), 0);
      if (sd.omod > 1) {
        if (++i >= lines.size()) throw bad("a set without its orientation row");
        twist = numbers(lines[i], sd.size, 0, sd.omod - 1);
      }
      for (int j = 0; j < sd.size; ++j) {
        const int from = perm[static_cast<std::size_t>(j)] - 1;
        p.perm[static_cast<std::size_t>(sd.offset + j)] = static_cast<std::uint8_t>(sd.offset + from);
        p.twist[static_cast<std::size_t>(sd.offset + j)] = static_cast<std::uint8_t>(twist[static_cast<std::size_t>(from)]);
      }
    }
    out.push_back(SymmetryDef{name, p, lookup});
  }
  return out;
}

Position conjugate(const Definition& d, const Perm& s, const Position& p) {
  // The element G with p = Solved moved by G (pieces distinct per set).
  Perm g = d.identity();
  for (int i = 0; i < d.positions; ++i) {
    const auto u = static_cast<std::size_t>(i);
    for (int h = 0; h < d.positions; ++h) {
      const auto v = static_cast<std::size_t>(h);
      if (d.set_of[v] == d.set_of[u] && d.solved.lab[v] == p.lab[u]) {
        g.perm[u] = static_cast<std::uint8_t>(h);
        const int n = d.omod[u];
        g.twist[u] = static_cast<std::uint8_t>(((p.ori[u] - d.solved.ori[v]) % n + n) % n);
        break;
      }
    }
  }
  return d.applied(s, d.applied(g, d.applied(d.inverse(s), d.solved)));
}

Conjugator::Conjugator(const Definition& d, const Perm& s)
    : d_(&d), s_(s), x_(d.applied(d.inverse(s), d.solved)), n_(static_cast<std::size_t>(d.positions)) {
  home_.assign(n_ * 256, 0);
  for (std::size_t u = 0; u < n_; ++u)
    for (std::size_t h = 0; h < n_; ++h)
      if (d.set_of[h] == d.set_of[u]) home_[u * 256 + d.solved.lab[h]] = static_cast<std::uint8_t>(h);
}

Inverter::Inverter(const Definition& d, const Position& goal) : goal_(goal), n_(static_cast<std::size_t>(d.positions)) {
  base_.resize(n_);
  omod_.resize(n_);
  slot_.assign(n_, 0);
  std::vector<bool> seen(n_, false);
  valid_ = true;
  for (std::size_t u = 0; u < n_; ++u) {
    const SetDef& set = d.sets[static_cast<std::size_t>(d.set_of[u])];
    base_[u] = static_cast<std::uint8_t>(set.offset);
    omod_[u] = d.omod[u];
    const std::size_t at = static_cast<std::size_t>(set.offset) + goal.lab[u];
    if (goal.lab[u] >= set.size || seen[at] || goal.ori[u] >= d.omod[u]) {
      valid_ = false;
      continue;
    }
    seen[at] = true;
    slot_[at] = static_cast<std::uint8_t>(u);
  }
}

namespace {

// The companion file's symmetries that map the moves of `ms` onto moves, each with the
// move a move becomes; none without a file, or unless the goal is Solved with distinct
// pieces per set.
std::vector<std::pair<SymmetryDef, std::vector<int>>> companion_symmetries(const Definition& d, const MoveSet& ms,
                                                                           const Position& goal) {
  std::vector<std::pair<SymmetryDef, std::vector<int>>> out;
  if (d.file.empty() || !(goal == d.solved)) return out;
  for (int i = 0; i < d.positions; ++i)
    for (int j = 0; j < i; ++j)
      if (d.set_of[static_cast<std::size_t>(i)] == d.set_of[static_cast<std::size_t>(j)] &&
          d.solved.lab[static_cast<std::size_t>(i)] == d.solved.lab[static_cast<std::size_t>(j)])
        return out;  // identical pieces: a position is no group element
  std::filesystem::path path(d.file);
  path.replace_extension(".sym");
  std::error_code ec;
  if (!file_allowed(path.string()) || !std::filesystem::is_regular_file(path, ec)) return out;
  for (auto& sd : parse_symmetries(d, tansaku::read_text_file(path.string(), "symmetry file", 0, nullptr), path.string())) {
    std::vector<int> conj = conjugated_moves(d, ms, sd.p);
    if (!conj.empty()) out.emplace_back(std::move(sd), std::move(conj));
  }
  return out;
}

}  // namespace

std::vector<int> conjugated_moves(const Definition& d, const MoveSet& ms, const Perm& s) {
  std::vector<int> conj;
  const Perm inv = d.inverse(s);
  for (const auto& g : ms.gens) {
    const Perm c = d.compose(d.compose(inv, g.p), s);
    int found = -1;
    for (std::size_t k = 0; k < ms.gens.size() && found < 0; ++k)
      if (ms.gens[k].p == c) found = static_cast<int>(k);
    if (found < 0) return {};
    conj.push_back(found);
  }
  return conj;
}

std::vector<Symmetry> load_symmetries(const Definition& d, const MoveSet& ms, const Position& goal) {
  std::vector<Symmetry> out;
  for (auto& [sd, conj] : companion_symmetries(d, ms, goal))
    if (sd.lookup) out.push_back(Symmetry{sd.name, sd.p, std::move(conj)});
  return out;
}

std::vector<Perm> symmetry_group(const Definition& d, const MoveSet& ms, const Position& goal) {
  std::vector<Perm> gens;
  for (auto& [sd, conj] : companion_symmetries(d, ms, goal)) gens.push_back(sd.p);
  std::vector<Perm> group;
  if (gens.empty()) return group;
  group.push_back(d.identity());
  for (std::size_t i = 0; i < group.size(); ++i)
    for (const Perm& g : gens) {
      const Perm c = d.compose(group[i], g);
      if (std::find(group.begin(), group.end(), c) == group.end()) {
        if (group.size() >= kMaxSymmetryGroup)
          throw InputError(fmt::format("{}: the symmetries generate more than {} elements", d.name, kMaxSymmetryGroup));
        group.push_back(c);
      }
    }
  return group;
}

std::string symmetry_fingerprint(const std::vector<Perm>& group) {
  pdb::ContentHash h;
  h.add(static_cast<std::uint64_t>(group.size()));
  for (const Perm& g : group) {
    h.add_bytes(g.perm.data(), g.perm.size());
    h.add_bytes(g.twist.data(), g.twist.size());
    h.add(static_cast<std::uint64_t>(g.mirror));
  }
  return h.hex();
}

}  // namespace tansaku::perm
