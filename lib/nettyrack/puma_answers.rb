# frozen_string_literal: true

module Nettyrack
  # What nettyrack says of the Puma settings that have no meaning in one JVM: the config file
  # methods and command-line flags of Puma's cluster mode, forking, its own thread and logger
  # plumbing. A Puma config file or command line keeps working; each such setting is answered
  # once at boot, on stderr, with one line saying why it does not apply (the :not_applied
  # setting carries the lines to Lifetime).
  #
  #   PumaAnswers.line(:workers, "workers 4")
  #   # => "nettyrack: `workers 4' (config/puma.rb): not applied: nettyrack is one JVM whose ..."
  #
  # Flow: PumaDSL (a config file) and CLI (-w, --preload...) → a :not_applied line → Lifetime's
  #   boot output.
  module PumaAnswers
    FORKING = "nettyrack is one JVM whose worker threads run on every core at once (no GVL), " \
              "so there are no forked workers; size the pool with `threads`"
    ONCE = "runs once, in the one process (there are no forked workers)"
    NOT_RUN = "there are no forked workers, so there is no fork for it to run around; it is not run"
    WORKER_TIMEOUTS = "there are no forked workers to watch; a request's limits are header_timeout, body_timeout, " \
                      "write_timeout and shutdown_timeout"

    WHY = {
      workers: FORKING,
      preload_app!: "the app is loaded once, before serving, in the one process: it is always preloaded",
      fork_worker: FORKING,
      before_fork: NOT_RUN,
      on_worker_fork: NOT_RUN, before_worker_fork: NOT_RUN, after_worker_fork: NOT_RUN, after_worker_boot: NOT_RUN,
      on_refork: NOT_RUN, before_refork: NOT_RUN, after_refork: NOT_RUN, after_worker_shutdown: NOT_RUN,
      on_worker_boot: "#{ONCE}, after the app loads and before serving",
      before_worker_boot: "#{ONCE}, after the app loads and before serving",
      on_worker_shutdown: "#{ONCE}, when the server has stopped",
      before_worker_shutdown: "#{ONCE}, when the server has stopped",
      worker_timeout: WORKER_TIMEOUTS, worker_boot_timeout: WORKER_TIMEOUTS, worker_shutdown_timeout: WORKER_TIMEOUTS,
      worker_check_interval: WORKER_TIMEOUTS, worker_culling_strategy: FORKING, wait_for_less_busy_worker: FORKING,
      nakayoshi_fork: FORKING, silence_single_worker_warning: FORKING, silence_fork_callback_warning: FORKING,
      cluster: "#{FORKING}; the block is not run (a `single` block is)",
      prune_bundler: "a hot restart starts a new JVM with the Gemfile as it is then; nothing to prune",
      extra_runtime_dependencies: "a hot restart starts a new JVM with the Gemfile as it is then; nothing to prune",
      restart_command: "a hot restart starts the command this process was started with (see docs/restart.md)",
      raise_exception_on_sigterm: "SIGTERM stops the server gracefully; no exception is raised in the app",
      clean_thread_locals: "worker threads are the JVM's and live as long as the pool; clear thread locals in the app",
      fiber_per_request: "worker threads are the JVM's and live as long as the pool; clear thread locals in the app",
      before_thread_start: "worker threads are the JVM's; the block is not run (set up per thread lazily in the app)",
      on_thread_start: "worker threads are the JVM's; the block is not run (set up per thread lazily in the app)",
      before_thread_exit: "worker threads are the JVM's; the block is not run",
      on_thread_exit: "worker threads are the JVM's; the block is not run",
      out_of_band: "there is no out-of-band time: requests wait in a queue for the next free thread; not run",
      max_fast_inline: "requests per connection are not capped: every request waits its turn in one queue",
      max_keep_alive: "requests per connection are not capped: every request waits its turn in one queue",
      enable_keep_alives: "keep-alive is always on; an idle connection closes after keep_alive_timeout",
      queue_requests: "requests always wait in a bounded queue (queue_size) for a thread",
      io_selector_backend: "Netty's epoll (or NIO) event loops do the I/O; see io_threads",
      max_io_threads: "Netty's event loops do the I/O; see io_threads",
      idle_timeout: "nettyrack does not stop itself when idle; stop it with SIGTERM or `nettyrack ctl stop`",
      custom_logger: "the server logs its own lines to stdout and stderr; see access_log and stdout_redirect",
      log_formatter: "the server logs its own lines to stdout and stderr; see access_log_format",
      debug: "see access_log and `nettyrack ctl thread-backtraces`",
      shutdown_debug: "`nettyrack ctl thread-backtraces` shows what every thread does, at any time",
      rack_url_scheme: "rack.url_scheme follows the listener (https on ssl://); behind a proxy, set it in middleware",
      supported_http_methods: "every method reaches the app, which answers those it does not serve",
      allow_underscore_headers: "headers with underscores reach the app, except where they would shadow a dashed one",
      set_remote_address: "REMOTE_ADDR is the peer, or the client a PROXY protocol header names (proxy_protocol); " \
                          "read X-Forwarded-For in the app (Rack::Request#ip does)",
      bind_to_activated_sockets: "a systemd-activated socket is served when a bind names its address; bind it",
      drain_on_shutdown: "a stop always lets accepted requests finish (shutdown_timeout)",
      plugin: "nettyrack does not load Puma plugins; `plugin :tmp_restart` works (tmp_restart)"
    }.freeze

    # The boot line for +name+, spelled as the user wrote it (+as+), from +where+ (the config
    # file, or "the command line").
    def self.line(name, as, where)
      why = WHY.fetch(name)
      "nettyrack: `#{as}' (#{where}): #{why.start_with?(ONCE) ? why : "not applied: #{why}"}"
    end
  end
end
