// Pattern specifications and their companion file (see pattern_spec.h).
#include "perm/pattern_spec.h"

#include <algorithm>
#include <filesystem>
#include <sstream>

#include <fmt/format.h>

#include "perm/generators.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"

namespace tansaku::perm {
namespace {

std::vector<std::string> words_of(const std::string& l) {
  std::istringstream ls(l);
  std::vector<std::string> w;
  for (std::string x; ls >> x;) w.push_back(x);
  return w;
}

// The packed label of piece number `number` in set sd (-1: none).
int label_of(const SetDef& sd, int number) {
  const auto it = std::find(sd.numbers.begin(), sd.numbers.end(), number);
  return it == sd.numbers.end() ? -1 : static_cast<int>(it - sd.numbers.begin());
}

std::vector<int> numbers_of(const SetDef& sd, const std::vector<int>& labels) {
  std::vector<int> v;
  for (int l : labels) v.push_back(sd.numbers[static_cast<std::size_t>(l)]);
  return v;
}

PatternSet& set_entry(PatternSpec& p, int set) {
  for (auto& s : p.sets)
    if (s.set == set) return s;
  p.sets.push_back(PatternSet{set, false, {}, {}});
  return p.sets.back();
}

// Each piece's class in set `set` under p: its label when distinct, 256 + c in class c, -1
// for the alike rest (-2 when p does not name the set).
std::vector<int> classes_in(const Definition& d, const PatternSpec& p, int set) {
  std::vector<int> cls(static_cast<std::size_t>(d.sets[static_cast<std::size_t>(set)].size), -2);
  for (const auto& s : p.sets) {
    if (s.set != set) continue;
    std::fill(cls.begin(), cls.end(), -1);
    for (int l : s.distinct) cls[static_cast<std::size_t>(l)] = l;
    for (std::size_t c = 0; c < s.classes.size(); ++c)
      for (int l : s.classes[c]) cls[static_cast<std::size_t>(l)] = 256 + static_cast<int>(c);
  }
  return cls;
}

// Whether coarse keeps nothing that fine does not: fine's orientations where coarse keeps
// them, and pieces alike in fine alike in coarse.
bool coarser(const Definition& d, const PatternSpec& coarse, const PatternSpec& fine) {
  for (const auto& s : coarse.sets) {
    bool ori = false;
    for (const auto& f : fine.sets) ori = ori || (f.set == s.set && f.orientations);
    if (s.orientations && !ori) return false;
    const std::vector<int> c = classes_in(d, coarse, s.set), f = classes_in(d, fine, s.set);
    for (std::size_t a = 0; a < c.size(); ++a)
      for (std::size_t b = 0; b < a; ++b)
        if (f[a] == f[b] && c[a] != c[b]) return false;
  }
  return true;
}

bool keeps_something(const Definition& d, const PatternSet& s) {
  return (s.orientations && d.sets[static_cast<std::size_t>(s.set)].omod > 1) || !s.distinct.empty() ||
         !s.classes.empty();
}

}  // namespace

TableList parse_table_list(const Definition& d, const std::string& text, const std::string& file) {
  TableList list;
  std::vector<PatternSpec>& out = list.patterns;
  std::istringstream in(text);
  int line = 0;
  auto bad = [&](const std::string& why) { return InputError(fmt::format("{}:{}: {}", file, line, why)); };
  PatternSpec* open = nullptr;
  std::string open_kind;  // the keyword that opened it
  int open_line = 0;
  std::vector<PatternSpec> phases[2];   // Phase1, Phase2 blocks
  std::vector<std::vector<bool>> used;  // per set, per label: already named in the open block
  std::vector<int> replaces_line;       // where each `Replaces` stands
  for (std::string l; std::getline(in, l);) {
    ++line;
    if (auto h = l.find('#'); h != std::string::npos) l.resize(h);
    const auto w = words_of(l);
    if (w.empty()) continue;
    // Piece numbers of set sd at w[from...] as packed labels, each once (used: per set).
    auto labels_at = [&](int s, std::size_t from) {
      const SetDef& sd = d.sets[static_cast<std::size_t>(s)];
      std::vector<int> labels;
      for (std::size_t i = from; i < w.size(); ++i) {
        if (w[i].size() > 4 || w[i].find_first_not_of("0123456789") != std::string::npos)
          throw bad("expected piece numbers");
        const int label = label_of(sd, std::stoi(w[i]));
        if (label < 0) throw bad(fmt::format("set {} has no piece {}", sd.name, w[i]));
        if (used[static_cast<std::size_t>(s)][static_cast<std::size_t>(label)])
          throw bad(fmt::format("piece {} of set {} named twice", w[i], sd.name));
        used[static_cast<std::size_t>(s)][static_cast<std::size_t>(label)] = true;
        labels.push_back(label);
      }
      return labels;
    };
    auto reset_used = [&] {
      used.assign(d.sets.size(), {});
      for (std::size_t s = 0; s < d.sets.size(); ++s) used[s].assign(static_cast<std::size_t>(d.sets[s].size), false);
    };
    if (!open && w[0] == "Pieces") {
      const int s = w.size() < 3 ? -1 : d.set_index(w[1]);
      if (w.size() < 3) throw bad("expected 'Pieces SET N...'");
      if (s < 0) throw bad(fmt::format("unknown set '{}'", printable(w[1])));
      reset_used();
      list.pieces.emplace_back(s, labels_at(s, 2));
      continue;
    }
    if (!open) {
      const bool phase = w[0] == "Phase1" || w[0] == "Phase2";
      if (w[0] == "Subgroup") {
        if (list.subgroup) throw bad(fmt::format("a second Subgroup (the first at line {})", list.subgroup->line));
        if (w.size() < 2) throw bad("expected 'Subgroup MOVE...' (the moves that generate the subgroup)");
        SubgroupSpec sg;
        sg.line = line;
        sg.file = file;
        sg.keeps.name = "subgroup";
        const MoveSet all = build_moves(d, "htm", "");
        for (std::size_t i = 1; i < w.size(); ++i) {
          const Gen* g = nullptr;
          for (const auto& x : all.gens)
            if (x.name == w[i]) g = &x;
          if (!g)
            throw bad(
                fmt::format("'{}' is not a move of {} (a base move or one of its powers)", printable(w[i]), d.name));
          // The powers of that power: R2 of an order-4 R stands for R2 alone, R for R, R2, R'.
          for (int k = g->power; k % g->order != 0; k += g->power) {
            const std::pair<int, int> bp{g->base, k % g->order};
            if (std::find(sg.moves.begin(), sg.moves.end(), bp) == sg.moves.end()) sg.moves.push_back(bp);
          }
          sg.written += (sg.written.empty() ? "" : " ") + w[i];
        }
        std::sort(sg.moves.begin(), sg.moves.end());
        list.subgroup = std::move(sg);
        open = &list.subgroup->keeps;
        open_kind = "Subgroup";
        reset_used();
        continue;
      }
      if (phase && !list.subgroup) throw bad(fmt::format("{} before the Subgroup block", w[0]));
      if ((w[0] != "Pattern" && !phase) || w.size() != 2)
        throw bad("expected 'Pattern NAME', 'Pieces SET N...', 'Subgroup MOVE...', 'Phase1 NAME' or 'Phase2 NAME'");
      if (w[1].size() > 40 ||
          w[1].find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") !=
              std::string::npos)
        throw bad("a pattern name is letters, digits, '-' and '_' (at most 40)");
      std::vector<PatternSpec>& into = !phase ? out : w[0] == "Phase1" ? phases[0] : phases[1];
      for (const auto& p : into)
        if (p.name == w[1]) throw bad(fmt::format("{} '{}' named twice", phase ? "table" : "pattern", w[1]));
      into.push_back(PatternSpec{w[1], {}});
      open = &into.back();
      open_kind = w[0];
      open_line = line;
      reset_used();
      continue;
    }
    if (w[0] == "End") {
      if (w.size() != 1) throw bad("expected 'End'");
      if (std::none_of(open->sets.begin(), open->sets.end(),
                       [&](const PatternSet& s) { return keeps_something(d, s); }))
        throw bad(open_kind == "Subgroup" ? std::string("the Subgroup block keeps nothing")
                                          : fmt::format("pattern '{}' keeps nothing", open->name));
      // A phase-1 table is 0 on the whole subgroup only if it keeps nothing more.
      if (open_kind == "Phase1" && list.subgroup && !coarser(d, *open, list.subgroup->keeps))
        throw InputError(
            fmt::format("{}:{}: Phase1 table '{}' keeps more than the Subgroup block (phase 1 ends on "
                        "reaching the subgroup: its tables keep only what the subgroup keeps)",
                        file, open_line, open->name));
      open = nullptr;
      continue;
    }
    if (w[0] == "Replaces") {
      if (w.size() != 2) throw bad("expected 'Replaces NAME' (a pattern of this file)");
      if (open_kind != "Pattern") throw bad(fmt::format("'Replaces' applies to Pattern blocks, not {}", open_kind));
      for (const auto& [by, of] : list.replaces)
        if (by == open->name) throw bad(fmt::format("pattern '{}' replaces '{}' already", by, of));
      list.replaces.emplace_back(open->name, w[1]);
      replaces_line.push_back(line);
      continue;
    }
    if (w[0] == "Reduced") {
      if (w.size() != 1) throw bad("'Reduced' takes nothing");
      if (open_kind != "Pattern") throw bad(fmt::format("'Reduced' applies to Pattern blocks, not {}", open_kind));
      open->reduced = true;
      continue;
    }
    const int s = d.set_index(w[0]);
    if (s < 0) throw bad(fmt::format("unknown set '{}'", printable(w[0])));
    const SetDef& sd = d.sets[static_cast<std::size_t>(s)];
    if (w.size() < 2) throw bad("expected 'SET orientations', 'SET class N...' or 'SET distinct N...'");
    PatternSet& ps = set_entry(*open, s);
    if (w[1] == "orientations") {
      if (w.size() != 2) throw bad("'orientations' takes no numbers");
      if (sd.omod < 2) throw bad(fmt::format("set {} has no orientations", sd.name));
      ps.orientations = true;
      continue;
    }
    if (w[1] != "class" && w[1] != "distinct")
      throw bad(fmt::format("unknown '{}' (orientations, class or distinct)", printable(w[1])));
    if (w.size() < 3) throw bad(fmt::format("'{}' without piece numbers", w[1]));
    const std::vector<int> labels = labels_at(s, 2);
    if (w[1] == "class") ps.classes.push_back(labels);
    else ps.distinct.insert(ps.distinct.end(), labels.begin(), labels.end());
  }
  if (open)
    throw bad(open_kind == "Subgroup" ? std::string("the Subgroup block without End")
                                      : fmt::format("pattern '{}' without End", open->name));
  // Each `Replaces` names another pattern of the file, which nothing else replaces: chains,
  // never a cycle.
  for (std::size_t i = 0; i < list.replaces.size(); ++i) {
    line = replaces_line[i];
    const auto& [by, of] = list.replaces[i];
    if (!list.pattern(of)) throw bad(fmt::format("'Replaces {}': no pattern of that name here", printable(of)));
    if (of == by) throw bad(fmt::format("pattern '{}' replaces itself", by));
    for (std::size_t j = 0; j < i; ++j)
      if (list.replaces[j].second == of)
        throw bad(fmt::format("'{}' is replaced by '{}' already", of, list.replaces[j].first));
  }
  for (const auto& [by, of] : list.replaces) {
    std::size_t steps = 0;
    for (const PatternSpec* p = list.pattern(by); p; p = list.instead_of(p->name))
      if (++steps > list.replaces.size() + 1) {
        line = replaces_line.front();
        throw bad(fmt::format("patterns replace each other in a cycle ('{}')", by));
      }
  }
  if (list.subgroup) {
    list.subgroup->phase1 = std::move(phases[0]);
    list.subgroup->phase2 = std::move(phases[1]);
  }
  return list;
}

const PatternSpec* TableList::pattern(const std::string& name) const {
  for (const auto& p : patterns)
    if (p.name == name) return &p;
  return nullptr;
}

const PatternSpec* TableList::instead_of(const std::string& name) const {
  for (const auto& [by, of] : replaces)
    if (by == name) return pattern(of);
  return nullptr;
}

const PatternSpec* TableList::stand_in(const std::string& name) const {
  for (const auto& [by, of] : replaces)
    if (of == name) return pattern(by);
  return nullptr;
}

std::vector<PatternSpec> parse_patterns(const Definition& d, const std::string& text, const std::string& file) {
  return parse_table_list(d, text, file).patterns;
}

TableList load_table_list(const Definition& d) {
  if (d.file.empty()) return {};
  std::filesystem::path path(d.file);
  path.replace_extension(".pat");
  std::error_code ec;
  if (!file_allowed(path.string()) || !std::filesystem::is_regular_file(path, ec)) return {};
  return parse_table_list(d, tansaku::read_text_file(path.string(), "pattern file", 0, nullptr), path.string());
}

nlohmann::ordered_json pattern_json(const Definition& d, const PatternSpec& p) {
  nlohmann::ordered_json sets = nlohmann::ordered_json::array();
  for (const auto& s : p.sets) {
    const SetDef& sd = d.sets[static_cast<std::size_t>(s.set)];
    auto numbers = [&](const std::vector<int>& labels) { return numbers_of(sd, labels); };
    nlohmann::ordered_json classes = nlohmann::ordered_json::array();
    for (const auto& c : s.classes) classes.push_back(numbers(c));
    sets.push_back({{"set", s.set + 1},
                    {"orientations", s.orientations},
                    {"distinct", numbers(s.distinct)},
                    {"classes", classes}});
  }
  nlohmann::ordered_json j = {{"name", p.name}, {"sets", sets}};
  if (p.reduced) j["reduced"] = true;
  return j;
}

PatternSpec pattern_from_json(const Definition& d, const nlohmann::ordered_json& j) {
  // Written back as a companion block and parsed: one set of checks.
  if (!j.is_object() || !j.contains("sets") || !j["sets"].is_array()) throw InputError("a pattern header without sets");
  std::string text = fmt::format("Pattern {}\n", j.value("name", "x"));
  for (const auto& s : j["sets"]) {
    const int set = s.value("set", 0) - 1;
    if (set < 0 || set >= static_cast<int>(d.sets.size())) throw InputError("a pattern header names no set");
    const std::string& name = d.sets[static_cast<std::size_t>(set)].name;
    if (s.value("orientations", false)) text += name + " orientations\n";
    if (s.contains("distinct") && !s["distinct"].empty())
      text += fmt::format("{} distinct {}\n", name, fmt::join(s["distinct"].get<std::vector<int>>(), " "));
    if (s.contains("classes"))
      for (const auto& c : s["classes"])
        text += fmt::format("{} class {}\n", name, fmt::join(c.get<std::vector<int>>(), " "));
  }
  if (j.value("reduced", false)) text += "Reduced\n";
  auto parsed = parse_patterns(d, text + "End\n", "pattern header");
  return parsed.at(0);
}

std::string pattern_text(const Definition& d, const PatternSpec& p) {
  std::string out;
  for (const auto& s : p.sets) {
    const SetDef& sd = d.sets[static_cast<std::size_t>(s.set)];
    std::vector<std::string> parts;
    if (s.orientations) parts.push_back("orientations");
    auto numbers = [&](const std::vector<int>& labels) {
      return fmt::format("{}", fmt::join(numbers_of(sd, labels), ","));
    };
    if (!s.distinct.empty()) parts.push_back("distinct " + numbers(s.distinct));
    for (const auto& c : s.classes) parts.push_back("class " + numbers(c));
    out += fmt::format("{}{} {}", out.empty() ? "" : "; ", sd.name, fmt::join(parts, ", "));
  }
  if (p.reduced) out += "; reduced by symmetry";
  return out;
}

}  // namespace tansaku::perm
