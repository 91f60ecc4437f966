// Pattern-database files, in the table file format (tansaku/pdb/table_file.h: kind
// "sliding-pdb", the board and the group in `info` (a reduced table's also the layout of its
// cells: the tiles in ranking order, how many make the big part), the 4-bit entries as one section of zstd
// frames of 16 MiB, decompressed on every thread). A file of an earlier layout is refused in
// one line with the `pdb remove` / `pdb build` hint.
#include <stdexcept>

#include <fmt/format.h>

#include "sliding/pdb.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/pdb/table_file.h"

namespace tansaku::sliding::pdb {
namespace {

constexpr const char* kKind = "sliding-pdb";
constexpr const char* kEncodingName = "4-bit-excess-over-manhattan";

std::string hint(const std::filesystem::path& file) {
  return fmt::format("`tansaku pdb remove {}` deletes it (`tansaku pdb build` makes it again)",
                     printable(file.filename().string()));
}

// The board and group of a file, checked.
TableInfo info_of(const tansaku::pdb::TableReader& r) {
  const tansaku::pdb::TableHeader& h = r.header();
  auto bad = [&](const char* why) {
    return InputError(r.refusal(fmt::format("not a sliding pattern database ({})", why)));
  };
  if (h.kind != kKind) throw bad("another kind of table");
  if (h.encoding != kEncodingName) throw bad("unknown encoding");
  TableInfo info;
  try {
    info.rows = h.info.at("rows").get<int>();
    info.cols = h.info.at("cols").get<int>();
    info.blank = h.info.at("blank").get<int>();
    for (const auto& c : h.info.at("cells")) info.cells.push_back(c.get<std::uint8_t>());
    info.reduced = h.info.value("reduced", false);
  } catch (const nlohmann::json::exception&) {
    throw bad("bad header");
  }
  const int n = info.rows * info.cols;
  if (info.rows < 2 || info.cols < 2 || n > 64 || info.blank < 0 || info.blank >= n || info.k() < 1 || info.k() >= n ||
      info.k() > KPermRanker::kMaxPieces)
    throw bad("bad board");
  for (auto c : info.cells)
    if (c >= n || c == info.blank) throw bad("bad group");
  try {
    (void)info.placements();
  } catch (const std::invalid_argument&) {
    throw bad("group too large");
  }
  if (info.reduced) {
    // The layout of its cells: the tiles in ranking order, the big part first.
    std::shared_ptr<const Reduction> red;
    try {
      red = reduction_of(info);
    } catch (const InputError&) {
      throw bad("a reduced table of a group that cannot be reduced");
    }
    std::vector<std::uint8_t> order;
    int big = 0;
    try {
      for (const auto& c : h.info.at("order")) order.push_back(c.get<std::uint8_t>());
      big = h.info.at("big").get<int>();
    } catch (const nlohmann::json::exception&) {
      throw bad("bad header");
    }
    if (order != red->order() || big != red->big_tiles())
      throw bad("its cells are laid out as another version of tansaku lays them");
  }
  if (h.entries != info.entries() || !r.has("cells")) throw bad("sizes do not match the group");
  return info;
}

}  // namespace

std::string content_hash(const TableInfo& info) {
  tansaku::pdb::ContentHash content;
  content.add(std::string_view(kKind))
      .add(static_cast<std::uint64_t>(info.rows))
      .add(static_cast<std::uint64_t>(info.cols));
  content.add(static_cast<std::uint64_t>(info.blank)).add_bytes(info.cells.data(), info.cells.size());
  if (info.reduced) content.add(std::string_view("reduced"));  // a full table's hash is as it was
  return content.hex();
}

std::string table_kind_name() { return kKind; }

void save_table(const Table& t, const std::filesystem::path& file, unsigned threads) {
  const TableInfo& info = t.info();
  nlohmann::ordered_json cells = nlohmann::ordered_json::array();
  for (auto c : info.cells) cells.push_back(c);
  tansaku::pdb::TableHeader h{kKind, content_hash(info), kEncodingName, info.entries(),
                              nlohmann::ordered_json{{"rows", info.rows},
                                                     {"cols", info.cols},
                                                     {"blank", info.blank},
                                                     {"cells", cells},
                                                     {"max_distance", t.max_distance}}};
  if (const Reduction* red = t.reduction()) {
    h.info["reduced"] = true;
    h.info["symmetries"] = red->symmetries();
    h.info["order"] = red->order();
    h.info["big"] = red->big_tiles();
  }
  const tansaku::pdb::SectionData section{"cells", t.data(), info.bytes(), tansaku::pdb::Storage::zstd};
  tansaku::pdb::write_table_file(file, h, std::span<const tansaku::pdb::SectionData>(&section, 1), threads);
}

TableInfo read_table_info(const std::filesystem::path& file) {
  const tansaku::pdb::TableReader r(file, hint(file));
  return info_of(r);
}

std::shared_ptr<Table> load_table(const std::filesystem::path& file, unsigned threads) {
  const tansaku::pdb::TableReader r(file, hint(file));
  TableInfo info = info_of(r);
  auto data = make_huge<std::uint8_t>(info.bytes());
  r.section_into("cells", data.get(), threads);
  auto t = std::make_shared<Table>(std::move(info), std::move(data));
  t->origin = "disk " + file.string();
  t->max_distance = r.header().info.value("max_distance", -1);
  return t;
}

}  // namespace tansaku::sliding::pdb
