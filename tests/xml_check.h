// A small XML well-formedness check for the pictures' tests: tags nest and close, attribute
// values are quoted, no attribute repeats in a tag, entities are the five predefined ones or
// numeric, and there is one root element. Enough to catch a broken SVG; not a parser.
#pragma once
#include <cctype>
#include <set>
#include <string>
#include <vector>

// "" when `xml` is well-formed, else what is wrong and where.
inline std::string xml_problem(const std::string& xml) {
  std::vector<std::string> open;
  int roots = 0;
  std::size_t i = 0;
  auto at = [&](std::size_t p) { return " at byte " + std::to_string(p); };
  auto name_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == ':' || c == '.';
  };
  auto entity_ok = [&](std::size_t p) {  // xml[p] == '&'
    const std::size_t semi = xml.find(';', p);
    if (semi == std::string::npos || semi - p > 10) return false;
    const std::string e = xml.substr(p + 1, semi - p - 1);
    if (e == "amp" || e == "lt" || e == "gt" || e == "quot" || e == "apos") return true;
    if (e.size() >= 2 && e[0] == '#') {
      for (std::size_t k = (e[1] == 'x' ? 2 : 1); k < e.size(); ++k)
        if (!std::isxdigit(static_cast<unsigned char>(e[k]))) return false;
      return true;
    }
    return false;
  };
  while (i < xml.size()) {
    if (xml[i] == '<') {
      if (xml.compare(i, 4, "<!--") == 0) {
        const std::size_t end = xml.find("-->", i);
        if (end == std::string::npos) return "unclosed comment" + at(i);
        i = end + 3;
        continue;
      }
      if (xml.compare(i, 2, "<?") == 0) {
        const std::size_t end = xml.find("?>", i);
        if (end == std::string::npos) return "unclosed declaration" + at(i);
        i = end + 2;
        continue;
      }
      const bool closing = i + 1 < xml.size() && xml[i + 1] == '/';
      std::size_t p = i + (closing ? 2 : 1);
      const std::size_t name_start = p;
      while (p < xml.size() && name_char(xml[p])) ++p;
      const std::string name = xml.substr(name_start, p - name_start);
      if (name.empty()) return "a tag without a name" + at(i);
      if (closing) {
        while (p < xml.size() && std::isspace(static_cast<unsigned char>(xml[p]))) ++p;
        if (p >= xml.size() || xml[p] != '>') return "bad closing tag </" + name + at(i);
        if (open.empty() || open.back() != name) return "</" + name + "> closes " + (open.empty() ? "nothing" : "<" + open.back() + ">") + at(i);
        open.pop_back();
        i = p + 1;
        continue;
      }
      std::set<std::string> attrs;
      bool self = false;
      for (;;) {
        while (p < xml.size() && std::isspace(static_cast<unsigned char>(xml[p]))) ++p;
        if (p >= xml.size()) return "unclosed tag <" + name + at(i);
        if (xml[p] == '>') break;
        if (xml[p] == '/') {
          if (p + 1 >= xml.size() || xml[p + 1] != '>') return "stray / in <" + name + at(p);
          self = true;
          ++p;
          break;
        }
        const std::size_t a = p;
        while (p < xml.size() && name_char(xml[p])) ++p;
        const std::string attr = xml.substr(a, p - a);
        if (attr.empty()) return "bad attribute in <" + name + at(p);
        if (!attrs.insert(attr).second) return "attribute " + attr + " twice in <" + name + at(p);
        if (p >= xml.size() || xml[p] != '=') return "attribute " + attr + " without a value" + at(p);
        ++p;
        if (p >= xml.size() || (xml[p] != '"' && xml[p] != '\'')) return "unquoted attribute " + attr + at(p);
        const char q = xml[p];
        const std::size_t end = xml.find(q, p + 1);
        if (end == std::string::npos) return "unclosed attribute " + attr + at(p);
        for (std::size_t k = p + 1; k < end; ++k) {
          if (xml[k] == '<') return "< inside attribute " + attr + at(k);
          if (xml[k] == '&' && !entity_ok(k)) return "bad entity in attribute " + attr + at(k);
        }
        p = end + 1;
      }
      if (open.empty()) {
        if (++roots > 1) return "a second root element <" + name + ">" + at(i);
      }
      if (!self) open.push_back(name);
      i = p + 1;
      continue;
    }
    if (xml[i] == '&' && !entity_ok(i)) return "bad entity" + at(i);
    if (open.empty() && !std::isspace(static_cast<unsigned char>(xml[i]))) return "text outside the root" + at(i);
    ++i;
  }
  if (!open.empty()) return "<" + open.back() + "> is never closed";
  if (roots != 1) return "no root element";
  return "";
}
