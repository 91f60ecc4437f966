// The pages of render/page.h. Markup is built here; the behaviour (player.js) and the style
// (page.css) are separate files embedded at build time (CMakeLists.txt: render_assets.h).
#include "tansaku/render/page.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "render_assets.h"  // generated: kAsset_player_js, kAsset_page_css
#include "tansaku/render/svg.h"

namespace tansaku::render {

std::string_view page_css() { return kAsset_page_css; }
std::string_view player_js() { return kAsset_player_js; }

std::string html_escape(std::string_view text) { return xml_escape(text); }

namespace {

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// JSON text made safe inside a <script> element: "</" and "<!" cannot end or comment it.
std::string script_json(const json& j) {
  const std::string s = dump(j);
  std::string out;
  out.reserve(s.size() + 64);
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<' && i + 1 < s.size() && (s[i + 1] == '/' || s[i + 1] == '!')) out += "\\u003c";
    else out += s[i];
  }
  return out;
}

// A value as text for a table cell: strings as they are, arrays of scalars space-separated.
std::string cell_text(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array()) {
    bool scalars = std::all_of(v.begin(), v.end(), [](const json& x) { return x.is_primitive(); });
    if (scalars) {
      std::string s;
      for (const auto& x : v) s += (s.empty() ? "" : " ") + (x.is_string() ? x.get<std::string>() : dump(x));
      return s;
    }
  }
  return dump(v);
}

// Escaped, folded into <details> when long.
std::string cell_html(const std::string& text, std::size_t fold = 240) {
  if (text.size() <= fold) return "<code>" + html_escape(text) + "</code>";
  return fmt::format("<details><summary>{} characters</summary><code>{}</code></details>", text.size(),
                     html_escape(text));
}

std::string str_field(const json& j, const char* key) {
  if (!j.contains(key)) return {};
  return j[key].is_string() ? j[key].get<std::string>() : dump(j[key]);
}

std::string seconds_text(const json& j) {
  if (!j.contains("seconds") || !j["seconds"].is_number()) return {};
  return fmt::format("{:.3f} s", j["seconds"].get<double>());
}

}  // namespace

std::string fields_table(const json& report) {
  std::string out = "<table class=\"fields\">";
  for (const auto& [k, v] : report.items())
    out += fmt::format("<tr><th>{}</th><td>{}</td></tr>", html_escape(k), cell_html(cell_text(v)));
  return out + "</table>";
}

std::string page(std::string_view title, std::string_view body) {
  std::string out;
  out.reserve(body.size() + player_js().size() + page_css().size() + 1024);
  out += "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
  // Nothing may be fetched: the browser enforces it too.
  out += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
         "script-src 'unsafe-inline'; img-src data:\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += fmt::format("<title>{}</title>\n<style>\n{}</style>\n</head>\n<body>\n", html_escape(title), page_css());
  out += body;
  out += fmt::format("\n<script>\n{}</script>\n</body>\n</html>\n", player_js());
  return out;
}

std::string player_data(const Drawing& d, std::size_t max_frame_bytes) {
  std::size_t bytes = 0;
  for (const auto& f : d.frames) bytes += f.size();
  json j = json::object();
  const bool sampled = bytes > max_frame_bytes && d.frames.size() > 2;
  json frames = json::array();
  if (sampled) {
    frames.push_back(d.frames.front());
    frames.push_back(d.frames.back());
  } else {
    for (const auto& f : d.frames) frames.push_back(f);
  }
  j["frames"] = std::move(frames);
  j["labels"] = d.labels;
  j["steps"] = d.labels.size();
  j["sampled"] = sampled;
  return script_json(j);
}

std::string solution_page(const json& report, const Drawing& d, std::size_t max_frame_bytes) {
  const std::string puzzle = str_field(report, "puzzle");
  std::string sub;
  if (report.value("solvable", true)) {
    if (report.contains("length") && report["length"].is_number())
      sub = fmt::format("solved in {} step{}{}", report["length"].get<std::int64_t>(),
                        report["length"].get<std::int64_t>() == 1 ? "" : "s",
                        report.value("optimal", true) ? " (optimal)" : " (not proved optimal)");
    else
      sub = "solved";
  } else {
    sub = "no solution: " + str_field(report, "reason");
  }
  if (report.contains("algorithm")) sub += " · " + str_field(report, "algorithm");
  if (auto s = seconds_text(report); !s.empty()) sub += " · " + s;
  std::string body = fmt::format("<header><h1>{}</h1><p class=\"sub\">{}</p></header>\n", html_escape(puzzle), html_escape(sub));
  std::size_t bytes = 0;
  for (const auto& f : d.frames) bytes += f.size();
  if (bytes > max_frame_bytes && d.frames.size() > 2)
    body += fmt::format("<p class=\"note\">{} frames weigh {} MB: the start and the end are drawn, every step is listed.</p>\n",
                        d.frames.size(), (bytes + (1 << 19)) >> 20);
  body += "<main class=\"player\" data-player>";
  body += "<div class=\"board\">" + (d.frames.empty() ? std::string() : d.frames.front()) + "</div>";
  body += "<script type=\"application/json\">" + player_data(d, max_frame_bytes) + "</script>";
  body += "</main>\n<h2>Report</h2>\n" + fields_table(report) + "\n";
  return page("tansaku: " + puzzle, body);
}

std::string histogram_chart(const std::vector<std::uint64_t>& h) {
  const std::size_t n = std::max<std::size_t>(1, h.size());
  const double bar = std::clamp(760.0 / static_cast<double>(n), 3.0, 44.0);
  const double height = 220, top = 18, bottom = 22, left = 8;
  const double width = left * 2 + bar * static_cast<double>(n);
  std::uint64_t max = 1;
  for (auto c : h) max = std::max(max, c);
  const double log_max = std::log10(static_cast<double>(max) + 1);
  Svg svg(width, top + height + bottom);
  const bool counts = bar >= 26;
  const std::size_t every = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(24 / bar)));
  for (std::size_t i = 0; i < h.size(); ++i) {
    const double c = static_cast<double>(h[i]);
    const double lin = h[i] ? std::max(1.0, c / static_cast<double>(max) * height) : 0;
    const double lg = h[i] ? std::max(1.0, std::log10(c + 1) / log_max * height) : 0;
    const double x = left + bar * static_cast<double>(i);
    svg.raw(fmt::format("<g><title>depth {}: {}</title>", i, h[i]));
    svg.rect(x + bar * 0.1, top + height - lin, bar * 0.8, lin, "#2f6fb3",
             fmt::format("class=\"bar\" data-lin-y=\"{}\" data-lin-h=\"{}\" data-log-y=\"{}\" data-log-h=\"{}\"",
                         num(top + height - lin), num(lin), num(top + height - lg), num(lg)));
    if (counts)
      svg.text(x + bar / 2, top + height - lin - 7, std::to_string(h[i]), bar >= 40 ? 10 : 8, "#444",
               fmt::format("data-lin-y=\"{}\" data-log-y=\"{}\"", num(top + height - lin - 7), num(top + height - lg - 7)));
    svg.raw("</g>");
    if (i % every == 0) svg.text(x + bar / 2, top + height + 11, std::to_string(i), 10, "#444");
  }
  svg.line(left, top + height, width - left, top + height, "#888", 1);
  return "<div class=\"chart\"><label><input type=\"checkbox\" data-scale> log scale</label><br>" + svg.str() +
         "<p class=\"sub\">positions at each depth (hover a bar for its count)</p></div>";
}

std::string explore_page(const json& report, const std::vector<std::string>& farthest) {
  const std::string puzzle = str_field(report, "puzzle");
  std::vector<std::uint64_t> h;
  if (report.contains("histogram"))
    for (const auto& c : report["histogram"])
      if (c.is_number_unsigned()) h.push_back(c.get<std::uint64_t>());
  std::string sub = fmt::format("{} states, depth {}", str_field(report, "states"), str_field(report, "depth"));
  if (auto s = seconds_text(report); !s.empty()) sub += " · " + s;
  std::string body = fmt::format("<header><h1>{}</h1><p class=\"sub\">explore from <code>{}</code>: {}</p></header>\n",
                                 html_escape(puzzle), html_escape(str_field(report, "from")), html_escape(sub));
  body += "<h2>Depth histogram</h2>\n" + histogram_chart(h) + "\n";
  const json far = report.value("farthest", json::array());
  body += fmt::format("<h2>Farthest positions ({} at depth {}{})</h2>\n<div class=\"gallery\">",
                      str_field(report, "farthest_count"), str_field(report, "depth"),
                      far.size() < report.value("farthest_count", std::uint64_t{0}) ? fmt::format(", {} shown", far.size()) : "");
  for (std::size_t i = 0; i < far.size(); ++i) {
    const std::string state = far[i].is_string() ? far[i].get<std::string>() : dump(far[i]);
    body += "<figure>" + (i < farthest.size() ? farthest[i] : std::string()) + "<figcaption>" + html_escape(state) +
            "</figcaption></figure>";
  }
  body += "</div>\n<h2>Report</h2>\n" + fields_table(report) + "\n";
  return page("tansaku: explore " + puzzle, body);
}

std::string batch_page(const json& summary, const json& rows) {
  const std::string puzzle = str_field(summary, "puzzle");
  std::string body = fmt::format(
      "<header><h1>{}</h1><p class=\"sub\">batch <code>{}</code>: {} instances, {} solved, sum of lengths {} · {}</p></header>\n",
      html_escape(puzzle), html_escape(str_field(summary, "batch")), str_field(summary, "instances"),
      str_field(summary, "solved"), str_field(summary, "sum_length"), seconds_text(summary));
  body += "<table class=\"rows\"><thead><tr><th>instance</th><th>start</th><th>length</th><th>nodes</th><th>time</th>"
          "<th>algorithm</th><th>moves</th></tr></thead><tbody>\n";
  for (const auto& r : rows) {
    const bool solved = r.value("solvable", false);
    const std::string length = solved && r.contains("length") && r["length"].is_number()
                                   ? std::to_string(r["length"].get<std::int64_t>()) + (r.value("optimal", true) ? "" : "*")
                                   : "none";
    body += fmt::format(
        "<tr{}><td class=\"num\">{}</td><td><code>{}</code></td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td>{}</td><td>{}</td></tr>\n",
        solved ? "" : " class=\"unsolved\"", html_escape(str_field(r, "instance")), html_escape(str_field(r, "start")),
        length, str_field(r, "nodes"), seconds_text(r), html_escape(str_field(r, "algorithm")),
        solved ? cell_html(cell_text(r.value("moves", json::array())), 80) : html_escape(str_field(r, "reason")));
  }
  body += "</tbody></table>\n<h2>Summary</h2>\n" + fields_table(summary) + "\n";
  return page("tansaku: batch " + puzzle, body);
}

std::string show_page(const json& info, const std::string& svg, const std::string& text) {
  const std::string puzzle = str_field(info, "puzzle");
  std::string body = fmt::format("<header><h1>{}</h1></header>\n<div class=\"board\">{}</div>\n", html_escape(puzzle), svg);
  if (!text.empty()) body += "<h2>Description</h2>\n<pre>" + html_escape(text) + "</pre>\n";
  body += "<h2>Fields</h2>\n" + fields_table(info) + "\n";
  return page("tansaku: " + puzzle, body);
}

}  // namespace tansaku::render
