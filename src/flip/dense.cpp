// M4RI elimination: the dense solver of the whole board, and the reduced row echelon form
// read back into a particular solution and a null-space basis (used by both solvers).
#include <fmt/format.h>

#include "flip/linear.h"
#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"

namespace tansaku::flip {
Rref eliminate(mzd_t* M, std::int64_t vars, bool want_kernel, std::uint64_t memory) {
  Rref out;
  out.particular = Bits(static_cast<std::size_t>(vars));
  const rci_t rows = M->nrows;
  if (rows == 0 || vars == 0) {
    for (rci_t i = 0; i < rows; ++i)
      if (mzd_read_bit(M, i, static_cast<rci_t>(vars))) out.consistent = false;
    if (want_kernel)
      for (std::int64_t j = 0; j < vars; ++j) {
        Bits v(static_cast<std::size_t>(vars));
        v.set(static_cast<std::size_t>(j));
        out.kernel.push_back(std::move(v));
      }
    return out;
  }
  const rci_t r = mzd_echelonize(M, 1);
  std::vector<std::int64_t> pivot_col(static_cast<std::size_t>(r));
  std::vector<char> is_pivot(static_cast<std::size_t>(vars), 0);
  const wi_t width = M->width;
  for (rci_t i = 0; i < r; ++i) {
    const word* row = mzd_row(M, i);
    std::int64_t col = -1;
    for (wi_t w = 0; w < width; ++w)
      if (row[w]) {
        col = static_cast<std::int64_t>(w) * 64 + std::countr_zero(row[w]);
        break;
      }
    pivot_col[static_cast<std::size_t>(i)] = col;
    if (col == vars) {
      out.consistent = false;
    } else if (col >= 0) {
      is_pivot[static_cast<std::size_t>(col)] = 1;
      ++out.rank;
    }
  }
  for (rci_t i = 0; i < r; ++i) {
    const auto pc = pivot_col[static_cast<std::size_t>(i)];
    if (pc >= 0 && pc < vars && mzd_read_bit(M, i, static_cast<rci_t>(vars)))
      out.particular.set(static_cast<std::size_t>(pc));
  }
  if (want_kernel) {
    const std::int64_t k = vars - out.rank;
    require_memory(static_cast<std::uint64_t>(k) * static_cast<std::uint64_t>((vars + 63) / 64) * 8, memory,
                   "the null-space basis");
    for (std::int64_t j = 0; j < vars; ++j) {
      if (is_pivot[static_cast<std::size_t>(j)]) continue;
      Bits v(static_cast<std::size_t>(vars));
      v.set(static_cast<std::size_t>(j));
      for (rci_t i = 0; i < r; ++i) {
        const auto pc = pivot_col[static_cast<std::size_t>(i)];
        if (pc >= 0 && pc < vars && mzd_read_bit(M, i, static_cast<rci_t>(j))) v.set(static_cast<std::size_t>(pc));
      }
      out.kernel.push_back(std::move(v));
    }
  }
  return out;
}

LinearResult solve_dense(const Board& board, const Bits& rhs, const LinearOptions& opt, const search::Limits& lim) {
  const std::int64_t n = board.cells();
  const std::uint64_t bytes = static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>((n + 1 + 63) / 64) * 8;
  require_memory(bytes, lim.memory, fmt::format("dense elimination of the {}x{} press matrix", n, n));
  if (n > (std::int64_t{1} << 30)) throw InputError("board too large for dense elimination");
  std::unique_ptr<mzd_t, MzdFree> M(mzd_init(static_cast<rci_t>(n), static_cast<rci_t>(n + 1)));
  for (std::int64_t p = 0; p < n; ++p)
    board.for_each_toggled(p, [&](std::int64_t q) {
      mzd_write_bit(M.get(), static_cast<rci_t>(q), static_cast<rci_t>(p), 1);
    });
  for (std::int64_t q = 0; q < n; ++q)
    if (rhs.get(static_cast<std::size_t>(q))) mzd_write_bit(M.get(), static_cast<rci_t>(q), static_cast<rci_t>(n), 1);
  if (lim.deadline) lim.deadline->check();
  Rref e = eliminate(M.get(), n, opt.want_kernel, lim.memory);
  LinearResult res;
  res.solvable = e.consistent;
  res.rank = e.rank;
  res.nullity = n - e.rank;
  res.particular = std::move(e.particular);
  res.kernel = std::move(e.kernel);
  res.unknowns = n;
  res.method = fmt::format("dense elimination (M4RI) of the {}x{} press matrix", n, n);
  return res;
}

}  // namespace tansaku::flip
