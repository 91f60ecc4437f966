// The web server: settings from the options, the routes of the JSON API and the app's pages,
// the local-host checks, and the run loop until a stop signal.
#include "serve/serve.h"

#include <dirent.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <thread>

#include <fmt/format.h>
#include <httplib.h>

#include "cli/output.h"
#include "cli/request.h"
#include "serve/api.h"
#include "serve/assets.h"
#include "serve/budget.h"
#include "serve/gate.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/memory.h"
#include "tansaku/puzzles/registry.h"
#include "tansaku/render/page.h"

namespace tansaku::serve {

namespace {

constexpr const char* kJson = "application/json";

struct Settings {
  unsigned workers = 1;
  std::size_t queue = 64;
  std::size_t body = 1 << 20;
  std::size_t connections = 1024;
  Caps caps;
};

// The open connections the file limit allows: the soft limit raised towards the hard one (a
// connection is a descriptor), half of it for connections (the rest: data files, tables, pipes).
std::size_t connection_room() {
  rlimit r{};
  if (getrlimit(RLIMIT_NOFILE, &r) != 0) return 256;
  const rlim_t want = r.rlim_max == RLIM_INFINITY ? 8192 : std::min<rlim_t>(r.rlim_max, 8192);
  if (r.rlim_cur != RLIM_INFINITY && r.rlim_cur < want) {
    rlimit up = r;
    up.rlim_cur = want;
    if (setrlimit(RLIMIT_NOFILE, &up) == 0) r = up;
  }
  const rlim_t cur = r.rlim_cur == RLIM_INFINITY ? 8192 : r.rlim_cur;
  return std::max<std::size_t>(16, static_cast<std::size_t>(cur / 2));
}

Settings settings_of(const Config& c) {
  Settings s;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  s.workers = c.workers.empty() ? cores : static_cast<unsigned>(whole("workers", c.workers, kMaxThreads));
  if (s.workers == 0) s.workers = cores;
  s.queue = whole("queue", c.queue, 100000);
  s.body = parse_size(c.body);
  const std::size_t room = connection_room();
  s.connections = c.connections.empty() ? std::min<std::size_t>(1024, room) : whole("connections", c.connections, room);
  if (s.connections == 0) throw InputError("--connections must be more than 0");
  if (s.body == 0) throw InputError("--body must be more than 0");
  if (!c.timeout.empty()) {
    char* end = nullptr;
    const double t = std::strtod(c.timeout.c_str(), &end);
    if (*end != '\0' || !std::isfinite(t) || t <= 0 || t > 1e9)
      throw InputError(fmt::format("--timeout '{}': give a number of seconds above 0 and at most 1e9", c.timeout));
    s.caps.timeout = t;
  }
  const std::uint64_t total = c.memory.empty() ? default_memory_budget() : parse_size(c.memory);
  if (total == 0) throw InputError("--memory must be more than 0");
  // Every worker busy still fits, with the tables kept between requests (budget.h).
  s.caps.memory = request_share(total, s.workers, !c.no_keep_tables);
  s.caps.files = c.allow_files;
  if (c.port < 0 || c.port > 65535) throw InputError(fmt::format("--port {} is not in 0..65535", c.port));
  return s;
}

void reply(httplib::Response& res, int status, const std::string& body) {
  res.status = status;
  res.set_content(body, kJson);
}

void reply_job(httplib::Response& res, const Job& job) {
  std::lock_guard lock(job.m);
  res.status = job.status;
  res.set_content(job.body, kJson);
  res.set_header("Server-Timing", fmt::format("work;dur={:.3f}, run;dur={:.3f}", job.work * 1e3, job.seconds * 1e3));
}

bool flag_param(const httplib::Request& req, const char* name) {
  if (!req.has_param(name)) return false;
  const std::string v = req.get_param_value(name);
  return v.empty() || v == "1" || v == "true";
}

std::string lower(std::string s) {
  for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

// Whether the server listens on the loopback interface only.
bool loopback_address(const std::string& bind) {
  return bind == "localhost" || bind.starts_with("127.") || bind == "::1" || bind == "[::1]";
}

// The Host header of a request to a loopback server: localhost, 127.0.0.1, [::1] or the bound
// address, with or without a port. Anything else (a DNS name that an attacker's page made
// point at 127.0.0.1: DNS rebinding) is refused.
bool local_host(const std::string& header, const std::string& bind) {
  std::string host = lower(header), port;
  if (host.starts_with("[")) {
    const auto end = host.find(']');
    if (end == std::string::npos) return false;
    port = host.substr(end + 1);
    host = host.substr(0, end + 1);
  } else if (const auto colon = host.find(':'); colon != std::string::npos) {
    port = host.substr(colon);
    host = host.substr(0, colon);
  }
  if (!port.empty() && (port.size() < 2 || port[0] != ':' || port.find_first_not_of("0123456789", 1) != std::string::npos))
    return false;
  const std::string b = lower(bind);
  return host == "localhost" || host == "127.0.0.1" || host == "[::1]" || host == b || host == "[" + b + "]";
}

// A Content-Type of application/json, parameters (charset) allowed. A page of another site
// can make the browser POST only text/plain, a form or multipart without asking first (CORS
// "simple requests"); JSON needs a preflight, which this server never grants.
bool json_type(const std::string& type) {
  std::string t = lower(type.substr(0, type.find(';')));
  const auto a = t.find_first_not_of(" \t"), b = t.find_last_not_of(" \t");
  return a != std::string::npos && t.substr(a, b - a + 1) == kJson;
}

// Masks SIGINT / SIGTERM in this thread (and the threads it starts) so that one thread
// receives them with sigtimedwait.
// cpp-httplib (Debian's, compiled) listens with a backlog of 5: a burst of connections on a
// busy machine overflows it and clients see resets. Linux takes a second listen() on a
// listening socket as a new backlog, so the server's socket (found among the process's
// descriptors by its port) gets SOMAXCONN.
void widen_backlog(int port) {
  DIR* dir = opendir("/proc/self/fd");
  if (!dir) return;
  while (const dirent* e = readdir(dir)) {
    const int fd = std::atoi(e->d_name);
    if (fd <= 2) continue;
    int listening = 0;
    socklen_t len = sizeof listening;
    if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &len) != 0 || !listening) continue;
    sockaddr_storage a{};
    socklen_t alen = sizeof a;
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&a), &alen) != 0) continue;
    const int p = a.ss_family == AF_INET    ? ntohs(reinterpret_cast<sockaddr_in*>(&a)->sin_port)
                  : a.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&a)->sin6_port)
                                            : -1;
    if (p == port) listen(fd, SOMAXCONN);
  }
  closedir(dir);
}

sigset_t stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  return set;
}

}  // namespace

int run(const Config& c) {
  Settings s;
  try {
    s = settings_of(c);
  } catch (const InputError& e) {
    fmt::print(stderr, "tansaku: {}\n", printable(e.what(), 4000));
    return 2;
  }
  map_large_allocations();  // before any thread starts (serve/budget.h)
  set_keep_tables(!c.no_keep_tables);
  // A request reads no file but the shipped data (and the directories the families declare:
  // Family::data_dirs) unless --allow-files: core/input.h's policy, for every thread of the process.
  if (!c.allow_files) {
    std::vector<std::string> roots = {shipped_data_dir()};
    for (const auto& f : families())
      if (f.data_dirs)
        for (auto& d : f.data_dirs()) roots.push_back(std::move(d));
    restrict_files(roots,
                   "the web API reads no file named by a request, only the shipped data "
                   "(start the server with 'tansaku serve --allow-files' to allow it)");
  }
  const bool loopback = loopback_address(c.bind);
  const sigset_t signals = stop_signals();
  Pool pool(s.workers, s.queue, run_job);
  // The connections (gate.h): at most s.connections open, each request's header and body read
  // by deadlines; a request waiting for its job holds a thread.
  GateLimits gate;
  gate.connections = s.connections;
  gate.threads = s.workers + s.queue + 8;
  gate.body_bytes = s.body;
  GatedServer svr(gate);
  svr.set_payload_max_length(s.body);
  svr.set_tcp_nodelay(true);

  // Before any route: the Host of a loopback server (DNS rebinding), and that an API request
  // comes from this app or a program, not from another site's page (CSRF): a POST must be
  // JSON, a browser's Sec-Fetch-Site same-origin (or none: typed in). A refused request's body
  // is not read: the connection is closed after the reply.
  svr.set_pre_routing_handler([&](const httplib::Request& req, httplib::Response& res) {
    auto refuse = [&](int status, const std::string& message) {
      reply(res, status, error_body(message, 2));
      // httplib says so itself when the request did (once is enough).
      if (req.get_header_value("Connection") != "close") res.set_header("Connection", "close");
      return httplib::Server::HandlerResponse::Handled;
    };
    if (loopback && !local_host(req.get_header_value("Host"), c.bind))
      return refuse(403, fmt::format("Host '{}' refused: this server answers only to localhost, 127.0.0.1 or [::1] "
                                     "(it listens on the loopback interface; see serve --bind)",
                                     printable(req.get_header_value("Host"), 200)));
    if (req.path.starts_with("/api/")) {
      const std::string site = req.get_header_value("Sec-Fetch-Site");
      if (!site.empty() && site != "same-origin" && site != "none")
        return refuse(403, fmt::format("a request from another site ({}) refused: the API serves this app and "
                                       "programs only", printable(site, 40)));
      if (req.method == "POST" && !json_type(req.get_header_value("Content-Type")))
        return refuse(415, fmt::format("POST {} needs 'Content-Type: application/json' (got '{}')", printable(req.path, 200),
                                       printable(req.get_header_value("Content-Type"), 200)));
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });

  // Queues a job; replies 503 when the pool is full. Returns the job or nullptr.
  auto submit = [&](unsigned command, json body, const httplib::Request& req, httplib::Response& res,
                    bool keep) -> std::shared_ptr<Job> {
    auto job = std::make_shared<Job>();
    job->command = command;
    take_paste(body, *job);
    job->options = options_of(command, body, s.caps);  // refuses a body that is not an object
    job->puzzle = body["puzzle"].get<std::string>();
    job->draw = flag_param(req, "draw");
    if (!pool.submit(job, keep)) {
      res.set_header("Retry-After", "1");
      reply(res, 503, error_body(fmt::format("busy: {} requests running or queued (serve --workers {} --queue {})",
                                             s.workers + s.queue, s.workers, s.queue), 3));
      return nullptr;
    }
    return job;
  };
  // show / solve / explore: the CLI's --json object, or with ?async=1 a job to poll.
  auto command = [&](unsigned cmd, bool from_query) {
    return [&, cmd, from_query](const httplib::Request& req, httplib::Response& res) {
      // InputError (a key given twice, malformed JSON): 400 through the exception handler.
      const json body = from_query ? body_of_query(req.params) : parse_body(req.body);
      const bool async = flag_param(req, "async");
      auto job = submit(cmd, body, req, res, async);
      if (!job) return;
      if (async) {
        res.set_header("Location", "/api/job/" + job->id);
        return reply(res, 202, json{{"job", job->id}}.dump());
      }
      job->wait();
      reply_job(res, *job);
    };
  };
  svr.Get("/api/list", [](const httplib::Request&, httplib::Response& res) { reply(res, 200, list_json().dump()); });
  svr.Get("/api/show", command(kShow, true));
  svr.Post("/api/show", command(kShow, false));
  svr.Post("/api/solve", command(kSolve, false));
  svr.Post("/api/explore", command(kExplore, false));
  // The app's pictures: {"info": show's object, "board": SVG, "states": [SVG...]}.
  svr.Post("/api/draw", [&](const httplib::Request& req, httplib::Response& res) {
    json body = parse_body(req.body);  // InputError: 400 through the exception handler
    std::vector<std::string> states;
    if (body.is_object() && body.contains("states")) {
      if (!body["states"].is_array()) return reply(res, 400, error_body("\"states\" must be an array of strings", 2));
      if (body["states"].size() > kMaxDrawStates)  // before any is drawn (serve/budget.h)
        return reply(res, 413, error_body(fmt::format("\"states\" names {} positions: at most {} may be drawn in one "
                                                      "request",
                                                      body["states"].size(), kMaxDrawStates),
                                          2));
      for (const auto& st : body["states"]) {
        if (!st.is_string()) return reply(res, 400, error_body("\"states\" must be an array of strings", 2));
        states.push_back(st.get<std::string>());
      }
      body.erase("states");
    }
    auto job = std::make_shared<Job>();
    job->command = kShow;
    take_paste(body, *job);
    job->options = options_of(kShow, body, s.caps);
    job->puzzle = body["puzzle"].get<std::string>();
    job->draw = true;
    job->states = std::move(states);
    if (!pool.submit(job, false)) {
      res.set_header("Retry-After", "1");
      return reply(res, 503, error_body("busy", 3));
    }
    job->wait();
    std::lock_guard lock(job->m);
    if (job->status != 200) return reply(res, job->status, job->body);
    json out = job->drawing;
    out["info"] = json::parse(job->body);
    reply(res, 200, out.dump(-1, ' ', false, json::error_handler_t::replace));
  });
  // The play mode: {"puzzle", <options>, "state"} -> the position, its legal moves and the
  // positions they lead to (Puzzle::play), and the position drawn ("board").
  svr.Post("/api/play", [&](const httplib::Request& req, httplib::Response& res) {
    json body = parse_body(req.body);  // InputError: 400 through the exception handler
    std::string state;
    if (body.is_object() && body.contains("state")) {
      if (!body["state"].is_string())
        return reply(res, 400, error_body("\"state\" must be a string: a position in the puzzle's notation", 2));
      state = body["state"].get<std::string>();
      if (!valid_utf8(state)) return reply(res, 400, error_body("\"state\" is not valid UTF-8", 2));
      body.erase("state");
    }
    auto job = std::make_shared<Job>();
    job->command = kShow;
    take_paste(body, *job);
    job->options = options_of(kShow, body, s.caps);
    job->puzzle = body["puzzle"].get<std::string>();
    job->draw = true;
    job->play = state;
    if (!pool.submit(job, false)) {
      res.set_header("Retry-After", "1");
      return reply(res, 503, error_body("busy", 3));
    }
    job->wait();
    std::lock_guard lock(job->m);
    if (job->status != 200) return reply(res, job->status, job->body);
    json out = json::parse(job->body);
    out["board"] = job->drawing.is_object() && job->drawing.contains("board") ? job->drawing["board"] : json("");
    reply(res, 200, out.dump(-1, ' ', false, json::error_handler_t::replace));
  });
  // The app's form for a puzzle: its family's commands, options and solvers as declared.
  svr.Get("/api/family", [&](const httplib::Request& req, httplib::Response& res) {
    json out;
    if (req.has_param("puzzle")) {
      out = family_json(req.get_param_value("puzzle"), s.caps);
    } else {  // every family, by a name of each (its prefix)
      out = json{{"families", json::array()}};
      for (const auto& f : families()) out["families"].push_back(family_json(f.prefix, s.caps));
    }
    reply(res, 200, out.dump(-1, ' ', false, json::error_handler_t::replace));
  });
  svr.Get(R"(/api/job/(\d+))", [&](const httplib::Request& req, httplib::Response& res) {
    auto job = pool.find(req.matches[1]);
    if (!job) return reply(res, 404, error_body("no job " + std::string(req.matches[1]), 2));
    reply(res, 200, job->snapshot().dump(-1, ' ', false, json::error_handler_t::replace));
  });
  auto cancel = [&](const httplib::Request& req, httplib::Response& res) {
    auto job = pool.find(req.matches[1]);
    if (!job) return reply(res, 404, error_body("no job " + std::string(req.matches[1]), 2));
    job->cancel = true;
    reply(res, 200, job->snapshot().dump(-1, ' ', false, json::error_handler_t::replace));
  };
  svr.Post(R"(/api/cancel/(\d+))", cancel);
  svr.Delete(R"(/api/job/(\d+))", cancel);
  // The solution player of the --html pages (render/page.h), reused by the app.
  // Other methods on the API's paths: 405 naming the ones it takes (they were "not found").
  const auto not_allowed = [](const httplib::Request& req, httplib::Response& res) {
    res.set_header("Allow", "GET, POST, DELETE");
    reply(res, 405,
          error_body(fmt::format("{} {}: the API takes GET and POST (and DELETE of a job)", printable(req.method, 20),
                                 printable(req.path, 200)),
                     2));
  };
  svr.Put(R"(/api/.*)", not_allowed);
  svr.Patch(R"(/api/.*)", not_allowed);
  svr.Options(R"(/api/.*)", not_allowed);
  svr.Get("/player.js", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(std::string(render::player_js()), "text/javascript; charset=utf-8");
    res.set_header("Cache-Control", "no-cache");
  });
  svr.Get("/page.css", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(std::string(render::page_css()), "text/css; charset=utf-8");
    res.set_header("Cache-Control", "no-cache");
  });
  // The app: index.html and its files, embedded at build time.
  svr.Get(R"(/([a-z0-9_.-]*))", [](const httplib::Request& req, httplib::Response& res) {
    std::string path = req.matches[1];
    if (path.empty()) path = "index.html";
    const Asset* a = find_asset(path);
    if (!a) return reply(res, 404, error_body("not found: /" + path, 2));
    res.set_content(std::string(a->data, a->size), a->type);
    res.set_header("Cache-Control", "no-cache");
  });
  svr.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
    try {
      std::rethrow_exception(ep);
    } catch (const InputError& e) {
      reply(res, 400, error_body(e.what(), 2));
    } catch (const std::exception& e) {
      reply(res, 500, error_body(std::string("internal error: ") + e.what(), 4));
    } catch (...) {
      reply(res, 500, error_body("internal error", 4));
    }
  });
  svr.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return;
    if (body_cut_off()) {  // a chunked body past --body, its rest unread
      res.status = 413;
      res.set_header("Connection", "close");
    } else if (res.status == 400) {  // a request httplib could not read: nothing after it can be trusted
      res.set_header("Connection", "close");
    }
    const char* what = res.status == 413 ? "request body too large (serve --body)"
                       : res.status == 404 ? "not found"
                       : res.status == 405 ? "method not allowed"
                                           : "bad request";
    reply(res, res.status, error_body(what, 2));
  });

  int port = c.port;
  if (port == 0) port = svr.bind_to_any_port(c.bind);
  else if (!svr.bind_to_port(c.bind, port)) port = -1;
  if (port < 0) {
    fmt::print(stderr, "tansaku: cannot listen on {}:{}\n", printable(c.bind, 200), c.port);
    return 2;
  }
  widen_backlog(port);
  fmt::print(stderr, "tansaku: serving http://{}:{}/ ({} workers, queue {}, at most {} s and {} MiB a request{}){}{}\n",
             c.bind.find(':') != std::string::npos ? "[" + c.bind + "]" : c.bind, port, s.workers, s.queue,
             s.caps.timeout, s.caps.memory >> 20, c.no_keep_tables ? "" : "; tables kept between requests",
             loopback ? "" : " -- reachable from other machines: there is no authentication",
             c.allow_files ? "; requests may read and write files (--allow-files)" : "");
  std::fflush(stderr);

  std::atomic<bool> done{false};
  std::thread waiter([&] {
    timespec tick{0, 200'000'000};
    while (!done) {
      release_memory();  // after a job: its freed memory goes back to the system
      if (sigtimedwait(&signals, nullptr, &tick) > 0) {
        pool.cancel_all();
        // A stop before the server listens is lost (a signal right after the start-up line):
        // stopped again until listening has ended.
        while (!done) {
          svr.stop();
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        return;
      }
    }
  });
  const bool ok = svr.listen_after_bind();
  done = true;
  waiter.join();
  pool.stop();
  keep_tables(nullptr);  // the kept tables go before the families' own statics do
  fmt::print(stderr, "tansaku: stopped\n");
  return ok ? 0 : 4;
}

}  // namespace tansaku::serve
