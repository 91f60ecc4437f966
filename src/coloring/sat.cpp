#include "coloring/sat.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "coloring/dsatur.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"

extern char** environ;

namespace tansaku::coloring {

std::string sat_solver_path() {
  if (const char* env = std::getenv("TANSAKU_SAT_SOLVER")) return env;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  std::stringstream ss(dirs);
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    if (dir.empty()) continue;
    std::string p = dir + "/cadical";
    if (access(p.c_str(), X_OK) == 0) return p;
  }
  return "";
}

std::string colouring_cnf(const Graph& g, int K) {
  // x(v, c): vertex v has colour c (1..K). Symmetry breaking by colour precedence along the
  // vertices by decreasing degree: colour c may appear at the i-th vertex only if colour c-1
  // appears among the vertices before it. y(i, c) = "colour c appears among the first i+1
  // vertices of the order". Every colouring, its colours renamed in order of first
  // appearance, satisfies this, so no colouring is lost. (Fixing a clique to 1..q instead,
  // or as well with the clique first in the order, made queen8_8's refutation 5x slower.)
  const long long nx = static_cast<long long>(g.n) * K;
  auto x = [K](int v, int c) { return static_cast<long long>(v) * K + c; };
  auto y = [nx, K](int i, int c) { return nx + static_cast<long long>(i) * K + c; };
  std::vector<int> order(static_cast<std::size_t>(g.n));
  for (int v = 0; v < g.n; ++v) order[v] = v;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return g.adj[a].size() > g.adj[b].size(); });

  std::string body;
  std::size_t clauses = 0;
  auto clause = [&](std::initializer_list<long long> lits) {
    for (long long l : lits) body += fmt::format("{} ", l);
    body += "0\n";
    ++clauses;
  };
  for (int v = 0; v < g.n; ++v) {
    for (int c = 1; c <= K; ++c) body += fmt::format("{} ", x(v, c));
    body += "0\n";
    ++clauses;
  }
  for (int v = 0; v < g.n; ++v)
    for (int u : g.adj[v])
      if (u > v)
        for (int c = 1; c <= K; ++c) clause({-x(v, c), -x(u, c)});
  for (int i = 0; i < g.n; ++i) {
    const int v = order[i];
    for (int c = 1; c <= K; ++c) {
      if (c > i + 1) clause({-x(v, c)});  // the i-th vertex sees at most i+1 colours
      // y(i, c) <-> y(i-1, c) or x(v, c)
      if (i == 0) {
        clause({-y(i, c), x(v, c)});
      } else {
        clause({-y(i, c), y(i - 1, c), x(v, c)});
        clause({-y(i - 1, c), y(i, c)});
        if (c >= 2) clause({-x(v, c), y(i - 1, c - 1)});  // precedence
      }
      clause({-x(v, c), y(i, c)});
    }
  }
  return fmt::format("p cnf {} {}\n", 2 * nx, clauses) + body;
}

namespace {
struct TempFile {
  std::string path;
  explicit TempFile(const char* tag) {
    std::string t = fmt::format("/tmp/tansaku-{}-XXXXXX", tag);
    int fd = mkstemp(t.data());
    if (fd < 0) throw std::runtime_error("cannot create a temporary file");
    close(fd);
    path = t;
  }
  ~TempFile() { std::remove(path.c_str()); }
};
}  // namespace

SatResult sat_decide(const Graph& g, int K, const std::vector<int>& clique, Deadline* deadline, std::uint64_t memory) {
  SatResult r;
  r.solver = sat_solver_path();
  if (r.solver.empty()) {
    r.message = "no SAT solver found (install the Debian package 'cadical')";
    return r;
  }
  if (static_cast<int>(clique.size()) > K) {
    r.status = SatStatus::Unsat;
    return r;
  }
  Peel p = peel(g, K);
  Graph core = induced(g, p.core);
  // The CNF text is ~ (edges + 4 vertices) x K clauses of ~16 bytes: refuse (fall back) when
  // that would not fit the memory budget.
  const double cnf_bytes = 16.0 * (static_cast<double>(core.edge_count()) + 4.0 * core.n) * K;
  if (cnf_bytes > static_cast<double>(memory)) {
    r.message = "the CNF would not fit the memory budget";
    return r;
  }
  TempFile cnf("cnf"), out("sat");
  {
    std::ofstream f(cnf.path);
    f << colouring_cnf(core, K);
    if (!f) throw std::runtime_error("cannot write the CNF file");
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, out.path.c_str(), O_WRONLY | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  std::string a0 = r.solver, a1 = "-q", a2 = cnf.path;
  char* argv[] = {a0.data(), a1.data(), a2.data(), nullptr};
  pid_t pid = 0;
  int rc = posix_spawn(&pid, r.solver.c_str(), &fa, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    r.message = fmt::format("cannot run {}", r.solver);
    return r;
  }
  int status = 0;
  auto sleep = std::chrono::microseconds(200);
  for (;;) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0) {
      r.status = SatStatus::Failed;
      r.message = "lost the SAT solver process";
      return r;
    }
    if (deadline && deadline->expired()) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      throw LimitError("time limit reached (--timeout)");
    }
    std::this_thread::sleep_for(sleep);
    if (sleep < std::chrono::milliseconds(20)) sleep *= 2;
  }
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::istringstream in(read_file(out.path, "SAT solver output", memory, nullptr));
  std::string line, answer;
  std::vector<char> value(static_cast<std::size_t>(core.n) * static_cast<std::size_t>(K) + 1, 0);
  while (std::getline(in, line)) {
    if (line.rfind("s ", 0) == 0) answer = line.substr(2);
    if (line.rfind("v ", 0) == 0) {
      std::stringstream ls(line.substr(2));
      long long lit;
      while (ls >> lit)
        if (lit > 0 && static_cast<std::size_t>(lit) < value.size()) value[static_cast<std::size_t>(lit)] = 1;
    }
  }
  if (code == 20 && answer == "UNSATISFIABLE") {
    r.status = SatStatus::Unsat;
    return r;
  }
  if (code != 10 || answer != "SATISFIABLE") {
    r.status = SatStatus::Failed;
    r.message = fmt::format("{} exited with code {} ('{}')", r.solver, code, printable(answer));
    return r;
  }
  std::vector<int> colours(static_cast<std::size_t>(g.n), 0);
  for (int v = 0; v < core.n; ++v)
    for (int c = 1; c <= K; ++c)
      if (value[static_cast<std::size_t>(v) * K + c]) {
        colours[p.core[v]] = c;
        break;
      }
  extend_peeled(g, p, K, colours);
  r.status = SatStatus::Sat;
  r.colours = std::move(colours);
  return r;
}

}  // namespace tansaku::coloring
