// Self-contained HTML pages around the families' drawings (Puzzle::draw*): the solution
// player, the explore chart, the batch table, the show page. One file each: inline SVG, CSS
// and script, nothing fetched (the only URL is the SVG namespace). `tansaku serve` reuses the
// pieces: page_css(), player_js() (window.tansakuPlayer(root, data)) and player_data().
//
// Large solutions. A page never holds more than kMaxFrameBytes of frames: when a drawing's
// frames weigh more, the page keeps the start and the last frame and lists every step
// ("sampled"), so a 10^4-step tour or a 1000x1000 board stays a page a browser opens. Families
// keep each frame small themselves (one <path> for many cells, not a node per cell) and may
// group steps (Drawing::labels says what each frame did).
//
// Highlights. A frame may mark what its step did (the tile that slid, the cell pressed) with
// extra elements carrying data-mark="1"; without them the frame is draw_state() of its
// position, which the tests check (the last frame of a solution draws the goal).
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "tansaku/puzzles/puzzle.h"

namespace tansaku::render {

inline constexpr std::size_t kMaxFrameBytes = std::size_t{16} << 20;

std::string_view page_css();
std::string_view player_js();

// The player's data as JSON text safe inside <script type="application/json"> ("</" and
// U+2028/9 escaped): {"frames": [...], "labels": [...], "steps": N, "sampled": bool}.
std::string player_data(const Drawing& d, std::size_t max_frame_bytes = kMaxFrameBytes);

// `report` is the CLI's --json object of the command (what the web API returns too); its
// fields are listed on the page.
std::string solution_page(const json& report, const Drawing& d, std::size_t max_frame_bytes = kMaxFrameBytes);
// `farthest[i]` draws report["farthest"][i] (fewer is fine; "" = no picture).
std::string explore_page(const json& report, const std::vector<std::string>& farthest);
// `summary` is --batch's summary object; `rows` one object per instance (its --json line).
std::string batch_page(const json& summary, const json& rows);
std::string show_page(const json& info, const std::string& svg, const std::string& text);

// The parts the pages are made of (for the web app's own pages).
std::string html_escape(std::string_view text);
std::string fields_table(const json& report);  // <table class="fields">: one row per field
std::string histogram_chart(const std::vector<std::uint64_t>& histogram);  // <div class="chart">
// <!doctype html> ... </html> around `body` with the style and the script inlined.
std::string page(std::string_view title, std::string_view body);

}  // namespace tansaku::render
