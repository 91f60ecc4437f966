// Piece tables on disk (see piece_file.h): perm's header fields, names and instance keys; the
// table file format (tansaku/pdb/table_file.h) reads, checks and places the sections.
#include "perm/piece_file.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <type_traits>

#include <fmt/format.h>

#include "tansaku/core/cache_dir.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/zeroed_pages.h"
#include "tansaku/pdb/table_file.h"

namespace tansaku::perm {
namespace {

using json = nlohmann::ordered_json;
constexpr const char* kPieceKind = "perm-piece";
constexpr const char* kPatternKind = "perm-pattern";
constexpr const char* kEncoding = "2-bit-mod-3";
constexpr const char* kEncoding4 = "4-bit-distance";  // pattern tables of exact values (pattern_table.h)

struct Fnv {
  std::uint64_t h = 1469598103934665603ull;
  void add(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) h = (h ^ ((v >> (8 * i)) & 0xff)) * 1099511628211ull;
  }
};

std::string safe(const std::string& s) {
  std::string o;
  for (char c : s) o += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
  return o.empty() ? "x" : o.substr(0, 40);
}

std::string table_hint(const std::filesystem::path& file) {
  return fmt::format("`tansaku pdb remove {}` deletes it (`tansaku pdb build` makes it again)",
                     printable(file.filename().string()));
}

// The cells in memory (section "cells"), raw as they are in memory, from a page boundary:
// loading maps them, or reads them into huge pages, no decompression (the 3x3x3's 554 MB
// pattern decompressed in about 0.6 s, most of a short solve). A table reduced by symmetry
// (pattern_reduction.h) has its sym-move table in section "sym_moves" and its classes: over
// 4-bit cells the class table ("classes"), over 2-bit cells each class's representative
// ("representatives") and a byte saying whether symmetries fix it ("fixed"); 32-bit words
// (or bytes) padded to 8 bytes.
std::uint64_t class_bytes(std::uint64_t values) { return (values * 4 + 7) / 8 * 8; }

// A table file of perm's, its header read and checked: the reader, the file's name as
// refusals print it, and the header's `info` with "cell_bits" (2, or 4 for a pattern's
// exact values).
struct Opened {
  pdb::TableReader r;
  std::string name;
  json h;
};

Opened open_table(const std::filesystem::path& file) {
  pdb::TableReader r(allowed_file(file.string(), "piece table"), table_hint(file));
  const pdb::TableHeader& th = r.header();
  const bool four = th.kind == kPatternKind && th.encoding == kEncoding4;
  const json& h = th.info;
  if ((th.kind != kPieceKind && th.kind != kPatternKind) || (th.encoding != kEncoding && !four) || !h.is_object() ||
      !r.has("cells") || !h.contains("entries") || !h.contains("key") ||
      !(h.contains("pieces") || h.contains("pattern")))
    throw InputError(r.refusal("not a perm piece or pattern table"));
  json info = h;
  info["cell_bits"] = four ? 4 : 2;
  // "bytes" is what a solve holds. A reduced table's file without "class_count" counted its
  // class table there, which a solve over 2-bit cells no longer holds.
  if (!four && h.contains("class_values") && !h.contains("class_count") && h.contains("bytes"))
    info["bytes"] = h.value("bytes", std::uint64_t{0}) - class_bytes(h.value("class_values", std::uint64_t{0}));
  std::string name = printable(file.string());
  return Opened{std::move(r), std::move(name), std::move(info)};
}

// 32-bit words as a section of whole 8-byte words: the table's own memory when it is an
// even count (no copy of gigabytes while the file is written), else a copy padded by a zero.
struct Words32 {
  std::vector<std::uint64_t> padded;
  const void* data;
  std::uint64_t bytes;
  explicit Words32(const ClassTable& t) : data(t.words), bytes(class_bytes(t.size)) {
    if (t.size % 2 == 0) return;
    padded.assign(bytes / 8, 0);
    std::memcpy(padded.data(), t.words, t.size * 4);
    data = padded.data();
  }
};

// A table file's content hash: found by what the distances depend on, the instance's key
// and what the table keeps (`keeps`: the header's "pieces" or "pattern"); 4-bit cells have
// a hash of their own.
std::string content_of(const std::string& key, const json& keeps, int bits) {
  pdb::ContentHash content;
  content.add(std::string_view(key)).add(std::string_view(keeps.dump()));
  if (bits == 4) content.add(std::string_view(kEncoding4));
  return content.hex();
}

std::string key_text(std::uint64_t key) { return fmt::format("{:016x}", key); }

json pieces_json(const PieceSpec& spec) {
  json pieces = json::array();
  for (int l : spec.labels) pieces.push_back(l + 1);
  return pieces;
}

// bits 4: exact values in 4-bit cells (a pattern table's), found by a content hash of its own.
// `extra`: the sections after the cells (a reduced pattern's), raw.
void save_cells(const json& h, const TwoBitTable& cells, const std::filesystem::path& file,
                const std::vector<pdb::SectionData>& extra = {}, int bits = 2) {
  const pdb::TableHeader th{h.contains("pattern") ? kPatternKind : kPieceKind,
                            content_of(h.value("key", ""), h.contains("pattern") ? h["pattern"] : h["pieces"], bits),
                            bits == 4 ? kEncoding4 : kEncoding, h.value("entries", std::uint64_t{0}), h};
  std::vector<pdb::SectionData> sections{
      {"cells", const_cast<TwoBitTable&>(cells).data(), cells.bytes(), pdb::Storage::raw}};
  sections.insert(sections.end(), extra.begin(), extra.end());
  pdb::write_table_file(file, th, sections);
}

// `cells` 2-bit cells (a table of 4-bit cells: twice its entries) of file `o`, placed as
// `placement` says (for a search: a big table in huge pages, perhaps by a copy its lookups
// move to once it is in: TwoBitTable::adopt).
std::unique_ptr<TwoBitTable> load_cells(const Opened& o, std::uint64_t cells, const search::Limits& lim,
                                        pdb::Placement placement) {
  if (o.r.section_bytes("cells") != TwoBitTable::bytes_for(cells))
    throw InputError(o.r.refusal("its cells do not match its entries"));
  pdb::LoadedSection s = o.r.load("cells", lim, placement);
  auto table = std::make_unique<TwoBitTable>(cells, reinterpret_cast<std::uint64_t*>(s.memory.release()),
                                             static_cast<std::size_t>(s.bytes));
  if (s.upgrade) {
    TwoBitTable* t = table.get();
    table->attach(
        s.upgrade([t](void* copy, std::size_t bytes) { t->adopt(static_cast<std::uint64_t*>(copy), bytes); }));
  }
  return table;
}

// The table of `dom` (its size checked against the header) with the cells of file `o`.
template <class Table, class Domain>
std::unique_ptr<Table> finish(const Opened& o, std::unique_ptr<Domain> dom, const search::Limits& lim) {
  if (o.h.value("entries", std::uint64_t{0}) != dom->size())
    throw InputError(o.r.refusal("its entries do not match its pattern"));
  const int bits = o.h.value("cell_bits", 2);
  auto cells = load_cells(o, dom->size() * static_cast<std::uint64_t>(bits / 2), lim, pdb::Placement::search);
  if constexpr (std::is_same_v<Table, PatternTable>) {
    return std::make_unique<Table>(std::move(dom), std::move(cells), o.h.value("max_distance", 0), bits);
  } else {
    if (bits != 2) throw InputError(o.r.refusal("a piece table of 4-bit cells"));
    return std::make_unique<Table>(std::move(dom), std::move(cells), o.h.value("max_distance", 0));
  }
}

}  // namespace

std::uint64_t instance_key(const Definition& d, const MoveSet& ms, const Position& goal) {
  Fnv f;
  f.add(static_cast<std::uint64_t>(d.positions));
  for (const auto& s : d.sets) f.add(static_cast<std::uint64_t>(s.size) << 8 | static_cast<std::uint64_t>(s.omod));
  f.add(ms.gens.size());
  for (const auto& g : ms.gens)
    for (int i = 0; i < d.positions; ++i)
      f.add(std::uint64_t{g.p.perm[static_cast<std::size_t>(i)]} << 8 | g.p.twist[static_cast<std::size_t>(i)]);
  for (int i = 0; i < d.positions; ++i)
    f.add(std::uint64_t{goal.lab[static_cast<std::size_t>(i)]} << 8 | goal.ori[static_cast<std::size_t>(i)]);
  return f.h;
}

std::string instance_prefix(const Definition& d, const MoveSet& ms, const Position& goal) {
  return fmt::format("perm-{}-{:016x}-", safe(d.name), instance_key(d, ms, goal));
}

std::string table_file_name(const Definition& d, const MoveSet& ms, const Position& goal, const PieceSpec& spec) {
  std::string pieces;
  for (int l : spec.labels) {
    if (!pieces.empty()) pieces += '.';
    pieces += std::to_string(l + 1);
  }
  return fmt::format("{}{}-{}.ptab", instance_prefix(d, ms, goal),
                     safe(d.sets[static_cast<std::size_t>(spec.set)].name), pieces);
}

namespace {

Opened open_instance_table(const std::filesystem::path& file, const Definition& d, const MoveSet& ms,
                           const Position& goal) {
  Opened o = open_table(file);
  if (o.h.value("key", "") != fmt::format("{:016x}", instance_key(d, ms, goal)))
    throw InputError(o.r.refusal("a table of another puzzle, move set or goal"));
  return o;
}

}  // namespace

json read_table_header(const std::filesystem::path& file) { return open_table(file).h; }

void save_piece_table(const PieceTable& t, const std::string& puzzle, std::uint64_t key, const std::string& set_name,
                      const std::filesystem::path& file) {
  const PieceDomain& dom = t.domain();
  const json h = {{"key", key_text(key)},
                  {"puzzle", puzzle},
                  {"set", dom.spec().set + 1},
                  {"set_name", set_name},
                  {"pieces", pieces_json(dom.spec())},
                  {"orientations", dom.orientations()},
                  {"entries", dom.size()},
                  {"bytes", t.bytes()},
                  {"max_distance", t.max_distance()}};
  save_cells(h, t.mod3(), file);
}

std::unique_ptr<PieceTable> load_piece_table(const std::filesystem::path& file, const Definition& d,
                                             const MoveSet& ms, const Position& goal, const search::Limits& lim) {
  const Opened o = open_instance_table(file, d, ms, goal);
  if (!o.h.contains("pieces")) throw InputError(fmt::format("{}: not a piece table", o.name));
  PieceSpec spec;
  spec.set = o.h.value("set", 0) - 1;
  for (const auto& l : o.h["pieces"]) spec.labels.push_back(l.get<int>() - 1);
  return finish<PieceTable>(o, std::make_unique<PieceDomain>(d, ms, goal, spec), lim);
}

pdb::BuildIdentity piece_identity(std::uint64_t key, const PieceSpec& spec) {
  return {kPieceKind, content_of(key_text(key), pieces_json(spec), 2), ""};
}

pdb::BuildIdentity pattern_identity(const Definition& d, std::uint64_t key, const PatternSpec& spec, int bits) {
  return {kPatternKind, content_of(key_text(key), pattern_json(d, spec), bits), ""};
}

std::string solve_memory_for(std::uint64_t bytes) {
  std::uint64_t need = bytes + bytes / 7;
  while (table_memory(need) < bytes) ++need;
  return memory_argument(need);
}

bool is_table_file_name(const std::string& name) { return name.ends_with(".ptab") || name.ends_with(".ptab.zst"); }

std::string pattern_file_name(const Definition& d, const MoveSet& ms, const Position& goal, const PatternSpec& spec,
                              int bits) {
  return fmt::format("{}pattern-{}{}.ptab", instance_prefix(d, ms, goal), safe(spec.name), bits == 4 ? "-exact" : "");
}

void save_pattern_table(const PatternTable& t, const Definition& d, std::uint64_t key,
                        const std::filesystem::path& file, const std::string& symmetries,
                        const std::vector<std::string>& replaces) {
  const PatternDomain& dom = t.domain();
  json h = {{"key", key_text(key)},  {"puzzle", "perm:" + d.name}, {"pattern", pattern_json(d, dom.spec())},
            {"entries", dom.size()}, {"bytes", t.bytes()},         {"max_distance", t.max_distance()}};
  if (!replaces.empty()) h["replaces"] = replaces;
  if (const PatternReduction* red = dom.reduction()) {
    // A table of 2-bit cells keeps its classes' representatives in place of the class table
    // (a solve over them reads no class table); one of 4-bit cells keeps the class table.
    const ClassTable ct = red->class_table();
    const SymMoveTable mt = red->sym_move_table();
    if (t.bits() == 4 && !ct.words) throw std::logic_error("perm: saving a reduced table without its class table");
    const std::vector<std::uint32_t>& reps = red->representatives();
    std::vector<std::uint8_t> fixed = red->fixed();
    fixed.resize((fixed.size() + 7) / 8 * 8, 0);
    const Words32 classes(t.bits() == 4 ? ct : ClassTable{reps.data(), reps.size(), {}});
    json hr = h;
    hr["bytes"] = red->solve_bytes(t.bits());  // what a solve holds
    hr["class_values"] = red->big_values();
    hr["class_count"] = red->classes();
    hr["sym_move_values"] = mt.count;
    hr["sym_move_bits"] = mt.bits;
    if (!symmetries.empty()) hr["symmetries"] = symmetries;
    std::vector<pdb::SectionData> extra;
    if (t.bits() == 4) {
      extra.push_back({"classes", classes.data, classes.bytes, pdb::Storage::raw});
    } else {
      extra.push_back({"representatives", classes.data, classes.bytes, pdb::Storage::raw});
      extra.push_back({"fixed", fixed.data(), fixed.size(), pdb::Storage::raw});
    }
    extra.push_back({"sym_moves", mt.data, mt.bytes, pdb::Storage::raw});
    save_cells(hr, t.cells(), file, extra, t.bits());
  } else {
    save_cells(h, t.cells(), file, {}, t.bits());
  }
}

namespace {

// 32-bit words of a section as a ClassTable of `values` words owning them.
ClassTable words_of(pdb::LoadedSection s, std::uint64_t values) {
  const auto* words = reinterpret_cast<const std::uint32_t*>(s.memory.get());
  std::shared_ptr<const void> owner(s.memory.release(), PagesDeleter{static_cast<std::size_t>(s.bytes)});
  return ClassTable{words, values, std::move(owner)};
}

// Section `name` of a reduced pattern's file `o`, `values` 32-bit words (or bytes, `bytes`),
// read and checked, placed as `at` says; refused as `what` when absent or of another size.
ClassTable read_words(const Opened& o, const char* name, std::uint64_t values, const search::Limits& lim,
                      pdb::Placement at, const char* label, const char* what, bool bytes = false) {
  const std::uint64_t size = bytes ? (values + 7) / 8 * 8 : class_bytes(values);
  if (values == 0 || !o.r.has(name) || o.r.section_bytes(name) != size) throw InputError(o.r.refusal(what));
  return words_of(o.r.load(name, lim, at, label), values);
}

// The sym-move table of a reduced pattern's file: its entries packed at "sym_move_bits" each,
// for a search in huge pages whatever its size (pdb::Placement::huge_pages: a search reads a
// sym-move row per node and lookup, and their 2 MiB pages are few: the kernel finds them at
// once, unlike the gigabytes of cells); or, in a file written before the packing, 32-bit
// words, mapped and checked (the reduction packs them into its own memory).
SymMoveTable read_sym_moves(const Opened& o, const search::Limits& lim, pdb::Placement at) {
  const std::uint64_t values = o.h.value("sym_move_values", std::uint64_t{0});
  const char* why = "a reduced table without its sym-move table";
  const auto bits = o.h.value("sym_move_bits", 0u);
  if (!o.h.contains("sym_move_bits")) {
    ClassTable w = read_words(o, "sym_moves", values, lim,
                              at == pdb::Placement::huge_pages ? pdb::Placement::check : at, "sym-move table", why);
    return SymMoveTable{w.words, w.size, 0, w.size * 4, std::move(w.owner)};
  }
  if (values == 0 || bits == 0 || bits > 32 || !o.r.has("sym_moves") ||
      o.r.section_bytes("sym_moves") != packed_bytes(values, bits))
    throw InputError(o.r.refusal(why));
  pdb::LoadedSection s = o.r.load("sym_moves", lim, at, "sym-move table");
  const std::uint64_t bytes = s.bytes;
  const void* data = s.memory.get();
  std::shared_ptr<const void> owner(s.memory.release(), PagesDeleter{static_cast<std::size_t>(bytes)});
  return SymMoveTable{data, values, bits, bytes, std::move(owner)};
}

// Its classes: the class table (a file of 4-bit cells, or of 2-bit cells written before the
// representatives were), or the representatives and which are fixed (mapped, checked: read
// once, into the reduction's own vectors).
struct ClassSections {
  ClassTable table, reps, fixed;
};
ClassSections read_classes(const Opened& o, const search::Limits& lim, pdb::Placement at) {
  ClassSections c;
  if (o.r.has("representatives")) {
    const std::uint64_t n = o.h.value("class_count", std::uint64_t{0});
    const char* why = "a reduced table without its representatives";
    c.reps = read_words(o, "representatives", n, lim, pdb::Placement::check, "representatives", why);
    c.fixed = read_words(o, "fixed", n, lim, pdb::Placement::check, "representatives", why, true);
  } else {
    c.table = read_words(o, "classes", o.h.value("class_values", std::uint64_t{0}), lim, at, "class table",
                         "a reduced table without its class table");
  }
  return c;
}

}  // namespace

std::unique_ptr<PatternTable> load_pattern_table(const std::filesystem::path& file, const Definition& d,
                                                 const MoveSet& ms, const Position& goal, const search::Limits& lim) {
  const Opened o = open_instance_table(file, d, ms, goal);
  if (!o.h.contains("pattern")) throw InputError(fmt::format("{}: not a pattern table", o.name));
  const PatternSpec spec = pattern_from_json(d, o.h["pattern"]);
  if (!spec.reduced)
    return finish<PatternTable>(
        o, std::make_unique<PatternDomain>(d, ms, goal, spec, lim.threads, nullptr, nullptr, nullptr, true), lim);
  // Over 2-bit cells the search does without the class table: the file's representatives
  // are read, or a class table where it lies in the file (mapped, checked), let go once the
  // representatives are known.
  const bool lean = o.h.value("cell_bits", 2) == 2;
  std::unique_ptr<PatternDomain> dom;
  {  // the mappings go before the cells come
    const ClassSections cs = read_classes(o, lim, lean ? pdb::Placement::check : pdb::Placement::huge_pages);
    const SymMoveTable mt = read_sym_moves(o, lim, pdb::Placement::huge_pages);
    if (cs.reps.words) {
      const ClassReps cr{{cs.reps.words, cs.reps.size},
                         {reinterpret_cast<const std::uint8_t*>(cs.fixed.words), cs.fixed.size}};
      dom = std::make_unique<PatternDomain>(d, ms, goal, spec, lim.threads, &lim, nullptr, &mt, false, SolveCap{}, &cr);
    } else {
      dom = std::make_unique<PatternDomain>(d, ms, goal, spec, lim.threads, &lim, &cs.table, &mt);
    }
  }
  if (lean) dom->drop_class_table();
  return finish<PatternTable>(o, std::move(dom), lim);
}

void verify_table_file(const std::filesystem::path& file, const search::Limits& lim) {
  const Opened o = open_table(file);
  search::Limits l = lim;
  l.progress = nullptr;
  if (o.h.value("class_values", std::uint64_t{0}) > 0) {
    (void)read_classes(o, l, pdb::Placement::check);
    (void)read_sym_moves(o, l, pdb::Placement::check);
  }
  (void)load_cells(o,
                   o.h.value("entries", std::uint64_t{0}) * static_cast<std::uint64_t>(o.h.value("cell_bits", 2) / 2),
                   l, pdb::Placement::check);
}

namespace {

// The tables kept loaded (hold_loaded_tables), by file.
struct Kept {
  std::uint64_t size = 0;
  std::filesystem::file_time_type mtime;
  std::shared_ptr<PieceTable> piece;
  std::shared_ptr<PatternTable> pattern;
};
// Never destroyed: a handle held by a static of another file (a server's kept tables) may go
// after this file's statics would have.
struct KeptTables {
  std::mutex mutex;
  int keeping = 0;  // the handles alive
  std::map<std::filesystem::path, Kept> by_file;
};
KeptTables& kept_tables() {
  static KeptTables* const k = new KeptTables;
  return *k;
}

// A file's size and modification time (nullopt: gone).
std::optional<std::pair<std::uint64_t, std::filesystem::file_time_type>> stamp(const std::filesystem::path& f) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(f, ec);
  if (ec) return std::nullopt;
  const auto mtime = std::filesystem::last_write_time(f, ec);
  if (ec) return std::nullopt;
  return std::make_pair(static_cast<std::uint64_t>(size), mtime);
}

}  // namespace

std::shared_ptr<void> hold_loaded_tables() {
  struct Hold {
    Hold() {
      KeptTables& k = kept_tables();
      const std::lock_guard<std::mutex> g(k.mutex);
      ++k.keeping;
    }
    ~Hold() {
      std::map<std::filesystem::path, Kept> gone;  // freed outside the lock
      KeptTables& k = kept_tables();
      const std::lock_guard<std::mutex> g(k.mutex);
      if (--k.keeping == 0) gone.swap(k.by_file);
    }
  };
  return std::make_shared<Hold>();
}

CachedTables load_cached_tables(const Definition& d, const MoveSet& ms, const Position& goal, std::uint64_t budget,
                                const search::Limits& lim) {
  CachedTables out;
  const std::filesystem::path dir = table_cache_dir();
  if (!file_allowed(dir.string())) return out;
  const std::string prefix = instance_prefix(d, ms, goal);
  std::vector<std::pair<std::uint64_t, std::filesystem::path>> found;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return out;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string n = e.path().filename().string();
    if (n.rfind(prefix, 0) != 0 || !is_table_file_name(n)) continue;
    try {
      const json h = read_table_header(e.path());
      found.emplace_back(h.value("bytes", std::uint64_t{0}), e.path());
    } catch (const InputError& err) {  // a file of this instance, damaged or truncated: said
      out.left_out.push_back(err.what());
    }
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  // Largest first while they fit; a table whose pieces a chosen one holds too (the same
  // set) adds nothing and is left out (edges 1-7 beside edges 1-8).
  std::uint64_t used = 0;
  std::vector<std::filesystem::path> chosen;
  std::vector<std::uint64_t> chosen_bytes;
  std::vector<std::pair<int, std::vector<int>>> held;
  std::vector<std::string> patterns_held, patterns_replaced;
  for (const auto& [bytes, path] : found) {
    if (bytes > budget && bytes > out.too_big_bytes) out.too_big = path, out.too_big_bytes = bytes;
    if (used + bytes > budget) continue;
    std::pair<int, std::vector<int>> mine;
    try {
      const json h = read_table_header(path);
      if (h.contains("pattern")) {  // a pattern holds no other table's pieces (a namesake: the same)
        const std::string pname = h["pattern"].value("name", "");
        if (std::find(patterns_held.begin(), patterns_held.end(), pname) != patterns_held.end()) continue;
        // A chosen pattern stands in for this one (a larger, stronger replacement), or this
        // one for a chosen one: one pattern of each chain.
        std::vector<std::string> replaces;
        if (h.contains("replaces") && h["replaces"].is_array())
          for (const auto& r : h["replaces"])
            if (r.is_string()) replaces.push_back(r.get<std::string>());
        auto listed_in = [](const std::vector<std::string>& v, const std::string& x) {
          return std::find(v.begin(), v.end(), x) != v.end();
        };
        if (listed_in(patterns_replaced, pname) ||
            std::any_of(replaces.begin(), replaces.end(),
                        [&](const std::string& r) { return listed_in(patterns_held, r); }))
          continue;
        patterns_held.push_back(pname);
        patterns_replaced.insert(patterns_replaced.end(), replaces.begin(), replaces.end());
        chosen.push_back(path);
        chosen_bytes.push_back(bytes);
        used += bytes;
        continue;
      }
      mine.first = h.value("set", 0);
      for (const auto& l : h["pieces"]) mine.second.push_back(l.get<int>());
    } catch (const std::exception&) {
      continue;
    }
    std::sort(mine.second.begin(), mine.second.end());
    bool covered = false;
    for (const auto& [set, pieces] : held)
      covered = covered || (set == mine.first && std::includes(pieces.begin(), pieces.end(), mine.second.begin(), mine.second.end()));
    if (covered) continue;
    held.push_back(mine);
    chosen.push_back(path);
    chosen_bytes.push_back(bytes);
    used += bytes;
  }
  // Loaded side by side (each file on its own thread, at most lim.threads at once; the
  // first reports progress), kept in the order chosen; those kept loaded from an earlier
  // solve of this process (hold_loaded_tables) are taken as they are.
  std::vector<std::shared_ptr<PieceTable>> loaded(chosen.size());
  std::vector<std::shared_ptr<PatternTable>> patterns(chosen.size());
  std::vector<std::exception_ptr> errors(chosen.size());
  std::vector<std::string> why(chosen.size());
  std::vector<char> read(chosen.size(), 0);  // loaded from its file here
  std::vector<std::optional<std::pair<std::uint64_t, std::filesystem::file_time_type>>> stamps(chosen.size());
  bool keep = false;
  {
    KeptTables& k = kept_tables();
    const std::lock_guard<std::mutex> g(k.mutex);
    keep = k.keeping > 0;
    if (keep) {
      std::map<std::filesystem::path, Kept> still;
      for (std::size_t i = 0; i < chosen.size(); ++i) {
        stamps[i] = stamp(chosen[i]);
        const auto it = k.by_file.find(chosen[i]);
        if (it == k.by_file.end() || !stamps[i] || it->second.size != stamps[i]->first ||
            it->second.mtime != stamps[i]->second)
          continue;
        loaded[i] = it->second.piece;
        patterns[i] = it->second.pattern;
        still.insert(*it);
      }
      k.by_file = std::move(still);  // the others go once no solve holds them
    }
  }
  std::atomic<std::size_t> next{0};
  auto work = [&](bool first) {
    search::Limits l = lim;
    if (!first) l.progress = nullptr;
    for (std::size_t i; (i = next.fetch_add(1)) < chosen.size();) {
      if (loaded[i] || patterns[i]) continue;
      try {
        if (read_table_header(chosen[i]).contains("pattern"))
          patterns[i] = load_pattern_table(chosen[i], d, ms, goal, l);
        else loaded[i] = load_piece_table(chosen[i], d, ms, goal, l);
        read[i] = 1;
      } catch (const InputError& e) {
        // Not a table of this instance after all (another version, damaged): left out, said.
        why[i] = e.what();
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  {
    std::vector<std::thread> pool;
    const std::size_t threads = std::min<std::size_t>(std::max(1u, lim.threads), chosen.size());
    for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(work, false);
    work(true);
    for (auto& t : pool) t.join();
  }
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
  if (keep) {
    KeptTables& k = kept_tables();
    const std::lock_guard<std::mutex> g(k.mutex);
    if (k.keeping > 0)
      for (std::size_t i = 0; i < chosen.size(); ++i)
        if ((loaded[i] || patterns[i]) && stamps[i])
          k.by_file[chosen[i]] = Kept{stamps[i]->first, stamps[i]->second, loaded[i], patterns[i]};
  }
  for (std::size_t i = 0; i < chosen.size(); ++i)
    if (read[i]) out.read_bytes += chosen_bytes[i];
  for (auto& t : loaded)
    if (t) out.pieces.push_back(std::move(t));
  for (auto& t : patterns)
    if (t) out.patterns.push_back(std::move(t));
  for (const auto& w : why)
    if (!w.empty()) out.left_out.push_back(w);
  return out;
}

}  // namespace tansaku::perm
