// A family's own report keys as a typed struct rather than writes into the untyped `extra`:
// the family fills the fields, and TANSAKU_REPORT_KEYS gives the struct a `put(keys, extra)`
// that writes each field under its own name, in declaration order (the order the JSON shows),
// an empty std::optional not at all. docs/cli.md lists the keys (scripts/json_schema.py).
#pragma once
#include <optional>

#include <nlohmann/json.hpp>

namespace tansaku::report_keys {

template <class J, class T>
void put_key(J& j, const char* name, const T& v) {
  j[name] = v;
}
template <class J, class T>
void put_key(J& j, const char* name, const std::optional<T>& v) {
  if (v) j[name] = *v;
}

}  // namespace tansaku::report_keys

#define TANSAKU_REPORT_KEY(field) ::tansaku::report_keys::put_key(tansaku_extra, #field, tansaku_keys.field);
// Declares `void put(const Type&, json& extra)` for a struct whose fields are report keys.
#define TANSAKU_REPORT_KEYS(Type, ...)                                         \
  template <class J>                                                           \
  void put(const Type& tansaku_keys, J& tansaku_extra) {                       \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(TANSAKU_REPORT_KEY, __VA_ARGS__)) \
  }
