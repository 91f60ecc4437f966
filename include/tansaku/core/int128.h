// Exact counts beyond 64 bits: solution counts are accumulated in unsigned __int128 and
// printed in decimal (JSON carries them as strings when they do not fit 64 bits).
#pragma once
#include <string>

namespace tansaku {

inline std::string to_decimal(unsigned __int128 v) {
  std::string s;
  do {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  } while (v);
  return s;
}

}  // namespace tansaku
