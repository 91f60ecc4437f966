// Reading and writing facelet strings (see facelets.h).
#include "perm/facelets.h"

#include <algorithm>

#include <fmt/format.h>

#include "perm/group_order.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"

namespace tansaku::perm {

namespace {

// What a grid cell holds: a fixed sticker, or slot `slot` of flat position `pos`.
struct Ref {
  int pos = -1, slot = 0;
  bool fixed = false;
  bool covered() const { return fixed || pos >= 0; }
};

// Per face (in facelet order) its cells row by row.
struct Layout {
  std::vector<int> face;   // per letter: the face index
  std::vector<Ref> ref;    // per letter
  std::vector<int> index;  // per letter: 1-based within its face (U1 .. U9)
  std::string why;         // non-empty: facelets do not apply
};

Layout layout(const Definition& d, const Net& net) {
  Layout l;
  for (const auto& f : net.faces) {
    if (f.cells == 0) return l.why = "its net draws polygons, not square faces", l;
    if (f.name.size() != 1) return l.why = fmt::format("its net's face '{}' is not named by one character", f.name), l;
  }
  std::vector<std::vector<Ref>> grid(net.faces.size());
  for (std::size_t f = 0; f < net.faces.size(); ++f)
    grid[f].resize(static_cast<std::size_t>(net.faces[f].cells * net.faces[f].cells));
  auto at = [&](const Net::Cell& c) -> Ref& {
    return grid[static_cast<std::size_t>(c.face)]
               [static_cast<std::size_t>(c.row * net.faces[static_cast<std::size_t>(c.face)].cells + c.col)];
  };
  for (const auto& c : net.fixed) at(c).fixed = true;
  for (int i = 0; i < d.positions; ++i)
    for (std::size_t k = 0; k < net.sticker[static_cast<std::size_t>(i)].size(); ++k) {
      const Net::Cell& c = net.sticker[static_cast<std::size_t>(i)][k];
      if (c.face < 0) return l.why = "its net does not place every sticker", l;
      Ref& r = at(c);
      if (r.covered()) return l.why = "its net places two stickers on one cell", l;
      r.pos = i, r.slot = static_cast<int>(k);
    }
  for (int f : net.facelet_order) {
    const auto& cells = grid[static_cast<std::size_t>(f)];
    for (std::size_t j = 0; j < cells.size(); ++j) {
      if (!cells[j].covered())
        return l.why =
                   fmt::format("its net leaves a cell of face {} empty", net.faces[static_cast<std::size_t>(f)].name),
               l;
      l.face.push_back(f);
      l.ref.push_back(cells[j]);
      l.index.push_back(static_cast<int>(j) + 1);
    }
  }
  return l;
}

// The position in the Solved block where the piece labelled `lab` (of the set of position
// i) is at home.
int home_of(const Definition& d, int i, int lab) {
  const SetDef& sd = d.sets[static_cast<std::size_t>(d.set_of[static_cast<std::size_t>(i)])];
  for (int j = sd.offset; j < sd.offset + sd.size; ++j)
    if (d.solved.lab[static_cast<std::size_t>(j)] == lab) return j;
  return i;
}

// The face whose colour slot o of position i shows when piece `home` stands there turned by ori
// (draw.cpp's rule: the piece's sticker (o - ori) mod n at home, counted from its Solved orientation).
int colour(const Definition& d, const Net& net, int home, int o, int ori) {
  const int n = d.omod[static_cast<std::size_t>(home)];
  const int k = ((o - ori + d.solved.ori[static_cast<std::size_t>(home)]) % n + 2 * n) % n;
  return net.sticker[static_cast<std::size_t>(home)][static_cast<std::size_t>(k)].face;
}

bool odd(const std::vector<int>& perm) {
  std::vector<bool> seen(perm.size(), false);
  bool parity = false;
  for (std::size_t i = 0; i < perm.size(); ++i) {
    std::size_t len = 0;
    for (std::size_t j = i; !seen[j]; j = static_cast<std::size_t>(perm[j])) seen[j] = true, ++len;
    if (len > 0 && len % 2 == 0) parity = !parity;
  }
  return parity;
}

}  // namespace

std::string facelets_unsupported(const Definition& d, const Net& net) { return layout(d, net).why; }

std::string facelets_of(const Definition& d, const Net& net, const Position& p) {
  const Layout l = layout(d, net);
  if (!l.why.empty()) throw InputError(fmt::format("facelets: not for {}: {}", d.name, l.why));
  std::string out;
  for (std::size_t j = 0; j < l.ref.size(); ++j) {
    const Ref& r = l.ref[j];
    int f = l.face[j];
    if (!r.fixed)
      f = colour(d, net, home_of(d, r.pos, p.lab[static_cast<std::size_t>(r.pos)]), r.slot,
                 p.ori[static_cast<std::size_t>(r.pos)]);
    out += net.faces[static_cast<std::size_t>(f)].name;
  }
  return out;
}

Position parse_facelets(const Definition& d, const Net& net, const MoveSet& ms, const std::string& text,
                        const std::string& what) {
  const Layout l = layout(d, net);
  if (!l.why.empty()) throw InputError(fmt::format("{}: not for {}: {}", what, d.name, l.why));
  std::string s;
  for (char c : text)
    if (c != ' ' && c != '\t') s += c;
  std::string names;
  for (int f : net.facelet_order) {
    if (!names.empty()) names += ' ';
    names += net.faces[static_cast<std::size_t>(f)].name;
  }
  if (s.size() != l.ref.size())
    throw InputError(fmt::format("{}: {} letters; {} has {} stickers (faces {}, each row by row)", what, s.size(),
                                 d.name, l.ref.size(), names));
  auto sticker_name = [&](std::size_t j) {
    return fmt::format("{}{}", net.faces[static_cast<std::size_t>(l.face[j])].name, l.index[j]);
  };
  // Letters to faces; each face's count; the fixed stickers.
  std::vector<int> face(s.size());
  std::vector<int> count(net.faces.size(), 0), cells(net.faces.size(), 0);
  for (std::size_t j = 0; j < s.size(); ++j) {
    ++cells[static_cast<std::size_t>(l.face[j])];
    face[j] = -1;
    for (std::size_t f = 0; f < net.faces.size(); ++f)
      if (net.faces[f].name[0] == s[j]) face[j] = static_cast<int>(f);
    if (face[j] < 0)
      throw InputError(fmt::format("{}: '{}' (sticker {}) is not a face: the letters are {}", what,
                                   printable(s.substr(j, 1)), sticker_name(j), names));
    ++count[static_cast<std::size_t>(face[j])];
  }
  for (std::size_t f = 0; f < net.faces.size(); ++f)
    if (count[f] != cells[f])
      throw InputError(fmt::format("{}: {} appears {} times; each face has {} stickers", what, net.faces[f].name,
                                   count[f], cells[f]));
  for (std::size_t j = 0; j < s.size(); ++j)
    if (l.ref[j].fixed && face[j] != l.face[j])
      throw InputError(
          fmt::format("{}: sticker {} shows {}, but it does not move (a centre): turn the puzzle so that it "
                      "shows {}",
                      what, sticker_name(j), s[j], net.faces[static_cast<std::size_t>(l.face[j])].name));
  // Each position's stickers (by slot) -> the piece and its orientation.
  std::vector<std::vector<std::size_t>> letters(static_cast<std::size_t>(d.positions));
  for (int i = 0; i < d.positions; ++i)
    letters[static_cast<std::size_t>(i)].assign(d.omod[static_cast<std::size_t>(i)], 0);
  for (std::size_t j = 0; j < s.size(); ++j)
    if (!l.ref[j].fixed) letters[static_cast<std::size_t>(l.ref[j].pos)][static_cast<std::size_t>(l.ref[j].slot)] = j;
  Position p = d.solved;
  for (const SetDef& sd : d.sets) {
    std::vector<int> used(256, 0), have(256, 0);
    for (int j = sd.offset; j < sd.offset + sd.size; ++j) ++have[d.solved.lab[static_cast<std::size_t>(j)]];
    for (int i = sd.offset; i < sd.offset + sd.size; ++i) {
      const auto& ls = letters[static_cast<std::size_t>(i)];
      const int n = sd.omod;
      int found = -1, found_ori = 0;
      for (int h = sd.offset; h < sd.offset + sd.size && found < 0; ++h)
        for (int o = 0; o < n && found < 0; ++o) {
          bool fits = true;
          for (int k = 0; k < n && fits; ++k) fits = colour(d, net, h, k, o) == face[ls[static_cast<std::size_t>(k)]];
          if (fits) found = h, found_ori = o;
        }
      std::string stickers, colours;
      for (std::size_t j : ls) {
        if (!stickers.empty()) stickers += ' ';
        stickers += sticker_name(j);
        colours += s[j];
      }
      if (found < 0)
        throw InputError(
            fmt::format("{}: stickers {} show {}: no piece of {} has these colours", what, stickers, colours, d.name));
      const int lab = d.solved.lab[static_cast<std::size_t>(found)];
      if (++used[static_cast<std::size_t>(lab)] > have[static_cast<std::size_t>(lab)])
        throw InputError(
            fmt::format("{}: the piece with colours {} appears twice (again at {})", what, colours, stickers));
      p.lab[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(lab);
      p.ori[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(found_ori);
    }
  }
  // Invariants of the moves, named: each set's orientation sum, the sets' joint parity.
  std::vector<int> parity_sets;  // sets of distinct pieces
  for (std::size_t si = 0; si < d.sets.size(); ++si) {
    const SetDef& sd = d.sets[si];
    bool distinct = true;
    for (int a = sd.offset; a < sd.offset + sd.size; ++a)
      for (int b = sd.offset; b < a; ++b)
        distinct = distinct && d.solved.lab[static_cast<std::size_t>(a)] != d.solved.lab[static_cast<std::size_t>(b)];
    if (distinct && sd.size > 1) parity_sets.push_back(static_cast<int>(si));
    if (sd.omod < 2) continue;
    bool kept = true;
    for (const Gen& g : ms.gens) {
      int sum = 0;
      for (int i = sd.offset; i < sd.offset + sd.size; ++i) sum += g.p.twist[static_cast<std::size_t>(i)];
      kept = kept && sum % sd.omod == 0;
    }
    int have = 0, want = 0;
    for (int i = sd.offset; i < sd.offset + sd.size; ++i)
      have += p.ori[static_cast<std::size_t>(i)], want += d.solved.ori[static_cast<std::size_t>(i)];
    if (kept && (have - want) % sd.omod != 0)
      throw InputError(
          fmt::format("{}: the {} are {}: their orientations sum to {} more than solved, mod {} (a piece {} in "
                      "place; no move does that)",
                      what, sd.name, sd.omod == 2 ? "flipped" : "twisted",
                      ((have - want) % sd.omod + sd.omod) % sd.omod, sd.omod, sd.omod == 2 ? "flipped" : "twisted"));
  }
  if (!parity_sets.empty() && parity_sets.size() <= 16) {
    auto vec_of = [&](auto&& lab_at) {
      unsigned v = 0;
      for (std::size_t k = 0; k < parity_sets.size(); ++k) {
        const SetDef& sd = d.sets[static_cast<std::size_t>(parity_sets[k])];
        std::vector<int> perm;
        for (int i = sd.offset; i < sd.offset + sd.size; ++i) perm.push_back(lab_at(i));
        // labels of a set of distinct pieces are 0 .. size-1: a permutation
        if (odd(perm)) v |= 1u << k;
      }
      return v;
    };
    auto label_vec = [&](const Position& q) {
      return vec_of([&](int i) { return static_cast<int>(q.lab[static_cast<std::size_t>(i)]); });
    };
    const unsigned target = label_vec(p) ^ label_vec(d.solved);
    std::vector<unsigned> span = {0};
    for (const Gen& g : ms.gens) {
      const unsigned v = vec_of([&](int i) {
        return static_cast<int>(g.p.perm[static_cast<std::size_t>(i)]) -
               d.sets[static_cast<std::size_t>(d.set_of[static_cast<std::size_t>(i)])].offset;
      });
      if (std::find(span.begin(), span.end(), v) != span.end()) continue;
      const std::size_t n = span.size();
      for (std::size_t k = 0; k < n; ++k)
        if (std::find(span.begin(), span.end(), span[k] ^ v) == span.end()) span.push_back(span[k] ^ v);
    }
    if (std::find(span.begin(), span.end(), target) == span.end())
      throw InputError(
          fmt::format("{}: the permutation parity is wrong (two pieces swapped; no move does that)", what));
  }
  if (reachable(d, ms, d.solved, p) == false)
    throw InputError(fmt::format("{}: no sequence of moves reaches this position from the solved one", what));
  return p;
}

}  // namespace tansaku::perm
