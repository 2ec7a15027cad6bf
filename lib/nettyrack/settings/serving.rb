# frozen_string_literal: true

require_relative "../control"
require_relative "../pubsub_setting"
require_relative "../setting"

module Nettyrack
  # SETTINGS rows (settings.rb) of listening, running and operations: where the server
  # listens, how it runs the app, and its control endpoint.
  module Settings
    LISTENING = [
      Setting.new(:host, "0.0.0.0", :text, group: :listening, dsl: false, keyword: true, # -p, `port`, $PORT, -O Port listen here
                                           option: "Host=HOST", option_help: "host to listen on (default: rackup's)"),
      Setting.new(:port, 9292, :port, group: :listening, flags: ["-p", "--port PORT"], into: :binds, dsl: :port, keyword: true,
                                      help: "listen on %{host}:PORT (default %{default})", # when no layer names a listener
                                      option: "Port=PORT", option_help: "port to listen on (default %{default})"),
      Setting.new(:binds, nil, :bind, group: :listening, flags: ["-b", "--bind URI"], into: :list, dsl: :bind, keyword: true,
                                      help: ["listen on tcp://HOST:PORT; on TLS:",
                                             "ssl://HOST:PORT?cert=FILE&key=FILE (see TLS); or on a unix socket:",
                                             "unix:///PATH[?mode=0660][&backlog=N] (a stale socket file is",
                                             "replaced, removed on stop); repeat to listen on several"]),
      Setting.new(:proxy_protocol, false, :boolean, group: :listening, flags: ["--[no-]proxy-protocol"], bare: true, keyword: true,
                                                    help: ["each connection opens with a PROXY protocol v1/v2 header",
                                                           "from a load balancer: REMOTE_ADDR is the client it names;",
                                                           "a connection without one is closed (default off)"],
                                                    option: "proxy_protocol",
                                                    option_help: "each connection opens with a PROXY protocol v1/v2 header " \
                                                                 "(REMOTE_ADDR from it)"),
      Setting.new(:http2, true, :boolean, group: :listening, flags: ["--[no-]http2"], bare: true, keyword: true,
                                          help: ["cleartext ports speak HTTP/2 too: h2c by prior knowledge",
                                                 "and by Upgrade: h2c (default on)"],
                                          option: "http2=BOOL",
                                          option_help: "serve h2c (HTTP/2 by prior knowledge or Upgrade: h2c) besides " \
                                                       "HTTP/1.1 (default true)")
    ].freeze

    RUNNING = [
      # nil: computed from the cores, see Configuration.default_threads
      Setting.new(:threads, nil, :threads, group: :running, flags: ["-t", "--threads MIN:MAX"], dsl: :threads, keyword: true,
                                           servlet: true,
                                           help: "worker threads, or just MAX (default: see below)",
                                           option: "Threads=MIN:MAX",
                                           option_help: "worker threads, or just MAX (default: as nettyrack -h says)"),
      # nil: 2 x MAX when the threads are the default, else 0 (Configuration.merge)
      Setting.new(:wait_threads, nil, :count, group: :running, flags: ["--wait-threads N"], builder: :waitThreads, keyword: true,
                                              servlet: true,
                                              help: ["threads added beyond MAX while requests queue behind threads",
                                                     "that wait (a database, an API) and the CPU has room; 0: never",
                                                     "(default: 2 x MAX with the default threads, else 0)"],
                                              option: "wait_threads=N",
                                              option_help: "threads added beyond MAX while requests queue behind waiting " \
                                                           "threads and the CPU has room (default: 2 x MAX with the " \
                                                           "default threads, else 0)"),
      Setting.new(:environment, "development", :text, group: :running, flags: ["-e", "--environment ENV"],
                                                      help: ["sets RACK_ENV (default $RACK_ENV, else development);",
                                                             "development puts exception details in 500 bodies"]),
      Setting.new(:rackup, "config.ru", :text, group: :running), # the CLI's argument
      Setting.new(:directory, nil, :text, group: :running, flags: ["--dir DIR"], # chdir before loading the rackup
                                          help: "change to DIR before loading config.ru"),
      Setting.new(:quiet, false, :boolean, group: :running, flags: ["-q", "--quiet"], bare: true,
                                           help: "print nothing on boot and shutdown", option: "Quiet"),
      Setting.new(:access_log, nil, ->(value) { ACCESS_LOG.fetch(value) { value } }, # nil: none; :stdout or a path
                  group: :running, flags: ["--access-log[=FILE]"], bare: :stdout, help: "log each request to FILE, or stdout",
                  also: [Setting::Alias.new(flag: "--log-requests", help: "Puma's spelling of --access-log (stdout)",
                                            value: :stdout)]),
      Setting.new(:access_log_format, "common", :access_log_format, group: :running, flags: ["--access-log-format FORMAT"],
                                                                    keyword: true,
                                                                    help: ["common (Rack::CommonLogger's line, the default),",
                                                                           "or json (one JSON object a line)"]),
      # the server's own lines on stdout (ServerLog); rackup reads -O log_format itself (RackOptions.log_format)
      Setting.new(:log_format, "text", :log_format, group: :running, flags: ["--log-format FORMAT"],
                                                    help: ["text (the default) or json: the server's own lines",
                                                           "(listening, shutting down) as one JSON object a line"],
                                                    option: "log_format=FORMAT",
                                                    option_help: "text (the default) or json: the server's own lines " \
                                                                 "(listening, shutting down) as one JSON object a line"),
      # nil: in-process; a redis://, redis-sentinel:// or redis-cluster:// URL: through Redis
      Setting.new(:pubsub, nil, ->(value, env) { PubSubSetting.setting(value, env) }, group: :running, flags: ["--pubsub URL"],
                  help: ["pub/sub across processes through Redis: redis://HOST[:PORT][/DB],",
                         "redis-sentinel://HOST[:PORT][,HOST[:PORT]...]/MASTER[/DB],",
                         "redis-cluster://HOST[:PORT][,HOST[:PORT]...] (sharded), or `redis`",
                         "for $REDIS_URL; `local` keeps it in-process (default)"],
                  option: "pubsub=URL",
                  option_help: "pub/sub across processes through Redis: redis://HOST[:PORT][/DB], " \
                               "redis-sentinel://HOST[:PORT],.../MASTER, redis-cluster://HOST[:PORT],..., " \
                               "or redis for $REDIS_URL"),
      # 0: none; else kept per channel (Redis Streams with a redis pubsub, memory in-process)
      Setting.new(:push_history, 0, :count, group: :running, flags: ["--push-history N"], option: "push_history=N",
                                            help: ["keep each channel's last N messages, so push clients resume",
                                                   "from an id (SSE: Last-Event-ID); 0: none (default %{default})"]),
      Setting.new(:push_history_ttl, 300, :seconds, group: :running, flags: ["--push-history-ttl SECONDS"],
                                                    option: "push_history_ttl=SECONDS",
                                                    help: "a kept message lives at most SECONDS after its channel's newest (default %{default})"),
      Setting.new(:push_history_channels, 10_000, :count, group: :running, flags: ["--push-history-channels N"],
                                                          option: "push_history_channels=N",
                                                          help: "in-process history: most channels kept (default %{default})")
    ].freeze

    # --access-log=- and a bare `access_log` log to stdout; false and nil to nowhere.
    ACCESS_LOG = { "-" => :stdout, false => nil, nil => nil }.freeze

    OPERATIONS = [
      # [host, port] or a unix Bind; nil: none
      Setting.new(:control_url, nil, ->(value) { Control.url(value) }, group: :operations, flags: ["--control-url URL"], keyword: true,
                  help: ["serve GET /stats, GET /thread-backtraces, POST /stop,",
                         "POST /restart, POST /reload-app, GET /ready, GET /health",
                         "on tcp://HOST:PORT or unix:///PATH (keep it private:",
                         "loopback, internal, or a socket only its users may open)"],
                  option: "control_url=URL",
                  option_help: "serve GET /stats, GET /thread-backtraces, POST /stop on tcp://HOST:PORT or unix:///PATH"),
      # nil: made up at boot; :none: no token asked for
      Setting.new(:control_token, nil, ->(value) { Control.token_setting(value) }, group: :operations, keyword: true,
                  flags: ["--control-token TOKEN"], help: "the token they need (default: a random one, printed)",
                  option: "control_token=TOKEN",
                  option_help: "the token control requests must carry (default: a random one, printed)",
                  also: [Setting::Alias.new(flag: "--no-control-token", dsl: :no_control_token, option: "no_control_token",
                                            help: "ask them for no token at all",
                                            option_help: "ask control requests for no token at all", value: :none)]),
      # [host, port] or a unix Bind; nil: none
      Setting.new(:metrics_url, nil, ->(value) { Control.url(value) }, group: :operations, flags: ["--metrics-url URL"],
                                                                        keyword: true,
                  help: ["serve GET /metrics (Prometheus), GET /ready and GET /health,",
                         "without a token, on tcp://HOST:PORT or unix:///PATH",
                         "(for a scraper; keep it private too)"],
                  option: "metrics_url=URL",
                  option_help: "serve GET /metrics (Prometheus) without a token on tcp://HOST:PORT or unix:///PATH"),
      # a span per request (org.nettyrack.otel), see docs/tracing.md
      Setting.new(:otel, "auto", :otel, group: :operations, flags: ["--otel MODE"], keyword: true,
                                        servlet: true,
                                        help: ["auto: a trace span per request when the OpenTelemetry SDK",
                                               "is on the class path (docs/tracing.md); off: never",
                                               "(default %{default})"],
                                        option: "otel=MODE",
                                        option_help: "auto: a trace span per request when the OpenTelemetry SDK is on " \
                                                     "the class path; off: never (default auto)")
    ].freeze
  end
end
