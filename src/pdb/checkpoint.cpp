// Resumable table builds (see tansaku/pdb/checkpoint.h): the partial file beside a table,
// written in the table file format, read back only by a build of the same identity, and
// listed, checked and removed by the cache commands as a kind of its own.
#include "tansaku/pdb/checkpoint.h"

#include <algorithm>
#include <system_error>

#include <fmt/format.h>

#include "tansaku/core/deadline.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/memory.h"

namespace tansaku::pdb {
namespace {

using json = nlohmann::ordered_json;

constexpr const char* kPartialKind = "partial";
constexpr const char* kPartialEncoding = "build-state";
constexpr const char* kSuffix = ".partial";

std::string resume_hint() { return "the next `tansaku pdb build` of its table starts over and replaces it"; }

// The process's clock for save intervals.
double now() {
  static const Stopwatch clock;
  return clock.seconds();
}

}  // namespace

std::filesystem::path partial_path(const std::filesystem::path& table_file) {
  return std::filesystem::path(table_file.string() + kSuffix);
}

Checkpoint::Checkpoint(std::filesystem::path table_file, BuildIdentity id, double interval,
                       std::function<void(const std::string&)> note)
    : partial_(partial_path(table_file)),
      id_(std::move(id)),
      interval_(interval),
      note_(std::move(note)),
      last_save_(now()) {}

std::optional<std::string> Checkpoint::saved_builder() const {
  std::error_code ec;
  if (!std::filesystem::exists(partial_, ec)) return std::nullopt;
  try {
    const TableReader r(partial_, resume_hint());
    const json& info = r.header().info;
    if (r.header().kind != kPartialKind || r.header().content != id_.content ||
        info.value("table_kind", "") != id_.kind)
      return std::nullopt;
    return info.value("builder", "");
  } catch (const InputError&) {
    return std::nullopt;
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

std::optional<TableReader> Checkpoint::resume(std::uint64_t memory, unsigned threads) {
  std::error_code ec;
  if (!std::filesystem::exists(partial_, ec)) return std::nullopt;
  auto say = [&](const std::string& s) {
    if (note_) note_(s);
  };
  std::optional<TableReader> r;
  try {
    r.emplace(partial_, resume_hint());
    const json& info = r->header().info;
    if (r->header().kind != kPartialKind || r->header().content != id_.content ||
        info.value("table_kind", "") != id_.kind || info.value("builder", "") != id_.builder) {
      say(fmt::format("{}: a partial build of another table or builder ({}); starting over",
                      printable(partial_.string()), printable(info.value("builder", std::string("?")))));
      return std::nullopt;
    }
    (void)point_of(*r);  // its counters read
  } catch (const InputError& e) {
    say(fmt::format("{} (ignored; starting over)", e.what()));
    return std::nullopt;
  } catch (const json::exception&) {
    say(fmt::format("{}: damaged partial build (its counters); starting over", printable(partial_.string())));
    return std::nullopt;
  }
  require_memory(r->memory_bytes(), memory, fmt::format("resuming the partial build {}", printable(partial_.string())));
  try {
    r->verify(threads);
  } catch (const InputError& e) {
    say(fmt::format("{} (ignored; starting over)", e.what()));
    return std::nullopt;
  }
  resumed_ = point_of(*r).layer;
  return r;
}

BuildPoint Checkpoint::point_of(const TableReader& r) {
  const json& info = r.header().info;
  BuildPoint p;
  p.layer = info.at("layer").get<std::int64_t>();
  p.done = info.at("done").get<std::uint64_t>();
  p.total = info.at("total").get<std::uint64_t>();
  p.info = info.at("state");
  return p;
}

std::string Checkpoint::table_name() const {
  std::string name = partial_.filename().string();
  name.resize(name.size() - std::string_view(kSuffix).size());
  return name;
}

bool Checkpoint::due() const { return now() - last_save_ >= std::max(interval_, 20 * save_seconds_); }

void Checkpoint::save(const BuildPoint& p, std::span<const SectionData> sections, unsigned threads) {
  const double t0 = now();
  std::uint64_t state = 0;
  for (const auto& s : sections) state += s.bytes;
  TableHeader h;
  h.kind = kPartialKind;
  h.content = id_.content;
  h.encoding = kPartialEncoding;
  h.entries = p.total;
  h.info = json{{"table_kind", id_.kind}, {"builder", id_.builder}, {"table", table_name()}, {"layer", p.layer},
                {"done", p.done},         {"total", p.total},       {"state_bytes", state},  {"state", p.info}};
  write_table_file(partial_, h, sections, threads);
  saved_ = true;
  last_save_ = now();
  save_seconds_ = last_save_ - t0;
}

void Checkpoint::finish() {
  std::error_code ec;
  std::filesystem::remove(partial_, ec);
}

std::uint64_t partial_disk_bytes(const std::filesystem::path& table_file, std::uint64_t state_bytes) {
  std::error_code ec;
  const auto there = std::filesystem::file_size(partial_path(table_file), ec);
  const std::uint64_t have = ec ? 0 : there;
  const std::uint64_t need = 2 * (state_bytes + (std::uint64_t{64} << 10));  // + headers and page padding
  return need > have ? need - have : 0;
}

void DiskNeed::add(const std::filesystem::path& file, std::uint64_t file_bytes, std::uint64_t state_bytes, bool force) {
  std::error_code ec;
  if (!force && std::filesystem::exists(file, ec)) return;
  files += file_bytes;
  partial = std::max(partial, partial_disk_bytes(file, state_bytes));
}

bool DiskNeed::fits(const std::filesystem::path& dir) const { return total() <= free_disk_bytes(dir); }

void DiskNeed::require(const std::filesystem::path& dir) const {
  if (fits(dir)) return;
  const std::uint64_t free_bytes = free_disk_bytes(dir);
  throw InputError(
      fmt::format("--dir {}: the tables may take up to {} and their partial builds up to {}, and the disk has {} free",
                  printable(dir.string()), format_size(files), format_size(partial), format_size(free_bytes)));
}

std::uint64_t free_disk_bytes(const std::filesystem::path& dir) {
  std::error_code ec;
  const auto space = std::filesystem::space(dir, ec);
  return ec ? ~std::uint64_t{0} : space.available;
}

const TableKind& partial_kind() {
  static const TableKind k = [] {
    TableKind k;
    k.heading = "partial builds in {} (the same `tansaku pdb build` goes on with them):";
    k.hide_when_empty = true;
    k.claims = [](const std::string& name) { return name.ends_with(kSuffix); };
    k.describe = [](const std::filesystem::path& file) {
      const TableReader r(file, resume_hint());
      if (r.header().kind != kPartialKind) throw InputError(r.refusal("not a partial build"));
      try {
        const BuildPoint p = Checkpoint::point_of(r);
        const json& info = r.header().info;
        std::error_code ec;
        const auto bytes = std::filesystem::file_size(file, ec);
        const double fraction = p.total ? static_cast<double>(p.done) / static_cast<double>(p.total) : 0.0;
        json j{{"partial", true},
               {"table", info.at("table").get<std::string>()},
               {"table_kind", info.at("table_kind").get<std::string>()},
               {"layer", p.layer},
               {"done", p.done},
               {"total", p.total},
               {"fraction", fraction},
               {"file", file.string()},
               {"file_bytes", ec ? 0 : bytes}};
        return std::pair<std::string, json>{fmt::format("{}: partial, at layer {}, {} of {} entries ({:.1f}%), {}  {}",
                                                        info.at("table").get<std::string>(), p.layer, p.done, p.total,
                                                        100 * fraction, format_size(ec ? 0 : bytes), file.string()),
                                            std::move(j)};
      } catch (const json::exception&) {
        throw InputError(r.refusal("damaged partial build (its counters)"));
      }
    };
    k.verify = [](const std::filesystem::path& file, const search::Limits& lim) {
      const TableReader r(file, resume_hint(), lim.memory);
      if (r.header().kind != kPartialKind) throw InputError(r.refusal("not a partial build"));
      r.verify(lim.threads);
      try {
        (void)Checkpoint::point_of(r);
      } catch (const json::exception&) {
        throw InputError(r.refusal("damaged partial build (its counters)"));
      }
    };
    return k;
  }();
  return k;
}

}  // namespace tansaku::pdb
