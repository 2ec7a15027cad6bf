# frozen_string_literal: true

require "etc"
require "optparse"
require_relative "configuration"
require_relative "control"
require_relative "pubsub"
require_relative "version"

module Nettyrack
  # The command line: ARGV → a settings layer (#settings, the top layer Configuration.merge
  # gets), the config file to read (#config_file), and what to do (#action: :run, :help or
  # :version). Parsing only: nothing is loaded, bound or printed here.
  class CLI
    attr_reader :settings, :config_file, :action

    # env: where `--pubsub redis` finds $REDIS_URL.
    def initialize(cores: Etc.nprocessors, env: ENV)
      @cores = cores
      @env = env
      @settings = {}
      @config_file = nil
      @action = :run
      @parser = build_parser
    end

    def parse(argv)
      rest = @parser.parse(argv)
      raise ConfigError, "one rackup file at most, got: #{rest.join(' ')}" if rest.size > 1

      @settings[:rackup] = rest.first if rest.first
      self
    rescue OptionParser::ParseError => e
      raise ConfigError, "invalid option: #{e.args.first}: #{PUMA_WORKERS}" if puma_workers?(e)

      raise ConfigError, "#{e.message} (see nettyrack --help)"
    end

    PUMA_WORKERS = "nettyrack runs one process that uses every core (no forked workers); " \
                   "leave it out, and size the threads with -t MIN:MAX (see nettyrack --help)"

    # Puma's cluster flag (-w/--workers): no use here, and OptionParser's guess would mislead.
    def puma_workers?(error)
      error.is_a?(OptionParser::InvalidOption) && error.args.first.to_s.match?(/\A(-w|--workers)(=|\z)/)
    end

    def help
      @parser.help
    end

    private

    def build_parser
      OptionParser.new(nil, 30) do |opts|
        opts.banner = "Usage: nettyrack [options] [config.ru]\n\n" \
                      "Serves the Rack app in config.ru (default ./config.ru) on JRuby with Netty."
        listening(opts)
        running(opts)
        files(opts)
        restarts(opts)
        operations(opts)
        limits(opts)
        common(opts)
        notes(opts)
      end
    end

    def listening(opts)
      opts.separator "\nListening:"
      host, port = Configuration::DEFAULTS.values_at(:host, :port)
      opts.on("-p", "--port PORT", "listen on #{host}:PORT (default #{port})") do |value|
        add_bind(Bind.tcp(host, read("--port") { Coerce.port(value) }))
      end
      opts.on("-b", "--bind URI", "listen on tcp://HOST:PORT; on TLS:",
              "ssl://HOST:PORT?cert=FILE&key=FILE (see TLS); or on a unix socket:",
              "unix:///PATH[?mode=0660][&backlog=N] (a stale socket file is",
              "replaced, removed on stop); repeat to listen on several") do |value|
        add_bind(read("--bind") { Coerce.bind(value) })
      end
      opts.on("--[no-]proxy-protocol", "each connection opens with a PROXY protocol v1/v2 header",
              "from a load balancer: REMOTE_ADDR is the client it names;",
              "a connection without one is closed (default off)") do |value|
        @settings[:proxy_protocol] = value
      end
      opts.on("--[no-]http2", "cleartext ports speak HTTP/2 too: h2c by prior knowledge", "and by Upgrade: h2c (default on)") do |value|
        @settings[:http2] = value
      end
    end

    def running(opts)
      opts.separator "\nRunning:"
      opts.on("-t", "--threads MIN:MAX", "worker threads, or just MAX (default: see below)") do |value|
        @settings[:threads] = read("--threads") { Coerce.threads(value) }
      end
      opts.on("-e", "--environment ENV", "sets RACK_ENV (default $RACK_ENV, else development);",
              "development puts exception details in 500 bodies") do |value|
        @settings[:environment] = value
      end
      opts.on("-C", "--config FILE", "read settings from a Ruby config file; flags win over it") do |value|
        @config_file = value
      end
      opts.on("--dir DIR", "change to DIR before loading config.ru") { |value| @settings[:directory] = value }
      opts.on("-q", "--quiet", "print nothing on boot and shutdown") { @settings[:quiet] = true }
      opts.on("--access-log[=FILE]", "log each request to FILE, or stdout") do |value|
        @settings[:access_log] = value.nil? || value == "-" ? :stdout : value
      end
      opts.on("--access-log-format FORMAT", "common (Rack::CommonLogger's line, the default),",
              "or json (one JSON object a line)") do |value|
        @settings[:access_log_format] = read("--access-log-format") { Coerce.access_log_format(value) }
      end
      opts.on("--pubsub URL", "pub/sub across processes through Redis: redis://HOST[:PORT][/DB],",
              "or `redis` for $REDIS_URL; `local` keeps it in-process (default)") do |value|
        @settings[:pubsub] = read("--pubsub") { PubSub.setting(value, @env) }
      end
    end

    def files(opts)
      opts.separator "\nFiles:"
      opts.on("--public DIR", "answer GET/HEAD for files under DIR before the app, on the",
              "I/O threads (Rails: --public public); off by default") do |value|
        @settings[:public_dir] = read("--public") { FileSettings.public_dir(value) }
      end
      opts.on("--public-cache-control PREFIX=VALUE", "Cache-Control for public files under PREFIX; repeat,",
              "longest prefix wins: /assets/=public,max-age=31536000,immutable") do |value|
        rule = read("--public-cache-control") { FileSettings.cache_rule(value) }
        @settings[:public_cache_control] = [*@settings[:public_cache_control], rule]
      end
      opts.on("--[no-]public-dotfiles", "serve names starting with . from DIR (default off)") do |value|
        @settings[:public_dotfiles] = value
      end
      opts.on("--[no-]sendfile", "send the file an x-sendfile response header names, and say so in",
              "HTTP_X_SENDFILE_TYPE for Rack::Sendfile (default: on with --public)") do |value|
        @settings[:sendfile] = value
      end
      opts.on("--[no-]early-hints", "env['rack.early_hints'] sends 103 responses (default on)") do |value|
        @settings[:early_hints] = value
      end
    end

    def restarts(opts)
      opts.separator "\nRestarts (SIGUSR2 or `nettyrack ctl restart`: a new process takes over, see docs/restart.md):"
      opts.on("--pidfile FILE", "write the serving process's pid to FILE") do |value|
        @settings[:pidfile] = read("--pidfile") { RestartSettings.pidfile(value) }
      end
      opts.on("--warmup FILE", "before serving, run FILE's requests through the app (one a",
              "line: GET /path); default: none, GET / in a hot restart") do |value|
        @settings[:warmup] = read("--warmup") { RestartSettings.warmup(value) }
      end
      opts.on("--no-warmup", "never warm up, not even in a hot restart") { @settings[:warmup] = false }
      defaults = Configuration::DEFAULTS
      opts.on("--warmup-time SECONDS", "the longest a warm-up runs; it stops sooner once",
              "throughput is flat (default #{defaults[:warmup_time]}s)") do |value|
        @settings[:warmup_time] = read("--warmup-time") { RestartSettings.warmup_time(value) }
      end
      opts.on("--warmup-requests N", "stop a warm-up after N answers (default 0: no count)") do |value|
        @settings[:warmup_requests] = read("--warmup-requests") { Coerce.count(value) }
      end
      opts.on("--restart-timeout SECONDS", "time a hot restart's new process has to serve",
              "(default #{defaults[:restart_timeout]}s)") do |value|
        @settings[:restart_timeout] = read("--restart-timeout") { RestartSettings.restart_timeout(value) }
      end
      opts.on("--restart-nice N", "a hot restart's new process boots and warms up at nice +N,",
              "so this one keeps serving first (default #{defaults[:restart_nice]}; 0: the same)") do |value|
        @settings[:restart_nice] = read("--restart-nice") { RestartSettings.restart_nice(value) }
      end
    end

    def operations(opts)
      opts.separator "\nOperations (see `nettyrack ctl --help`):"
      opts.on("--control-url URL", "serve GET /stats, GET /thread-backtraces, POST /stop,",
              "POST /restart, GET /ready, GET /health on tcp://HOST:PORT",
              "or unix:///PATH (keep it private: loopback, internal, or",
              "a socket only its users may open)") do |value|
        @settings[:control_url] = read("--control-url") { Control.url(value) }
      end
      opts.on("--control-token TOKEN", "the token they need (default: a random one, printed)") do |value|
        @settings[:control_token] = read("--control-token") { Control.token_setting(value) }
      end
      opts.on("--no-control-token", "ask them for no token at all") { @settings[:control_token] = :none }
    end

    def limits(opts)
      opts.separator "\nLimits (sizes take k, m, g: 64k, 10m; durations are seconds, or 500ms, 2m):"
      LIMITS.each do |limit|
        default = format_default(limit, Configuration::DEFAULTS.fetch(limit.name))
        opts.on(limit.flag + " " + limit.metavar, "#{limit.help} (default #{default})") do |value|
          @settings[limit.name] = read(limit.flag) { limit.coerce(value) }
        end
      end
    end

    def common(opts)
      opts.separator "\nOther:"
      opts.on("-v", "--version", "print the version and exit") { @action = :version }
      opts.on("-h", "--help", "print this help and exit") { @action = :help }
    end

    def notes(opts)
      min, max = Configuration.default_threads(@cores)
      opts.separator <<~NOTES

        Precedence: flags here, then $PORT (port only), then the config file (-C), then defaults.
          So `-p`/`-b` win over $PORT, and $PORT wins over `port`/`bind` in the config file.
        Threads default: $RAILS_MAX_THREADS (with $RAILS_MIN_THREADS, else a fixed pool) when set,
          else MIN = cores, MAX = max(4, 2 x cores): #{min}:#{max} on this machine.
        SIGINT or SIGTERM: stop accepting, let requests finish (--shutdown-timeout), exit 0;
          so does `nettyrack ctl stop` (POST /stop) with --control-url.
        SIGUSR2 (or SIGUSR1, or `nettyrack ctl restart`): hot restart. The same command starts
          again, takes the listening sockets over, warms up, serves; then this process drains.
        `nettyrack war [APP_DIR]` packages the app as a WAR (see `nettyrack war --help`).
      NOTES
    end

    def add_bind(bind)
      (@settings[:binds] ||= []) << bind
    end

    def read(flag)
      yield
    rescue ConfigError => e
      raise ConfigError, "invalid #{flag}: #{e.message}"
    end

    def format_default(limit, value)
      case limit.kind
      when :seconds then "#{value}s"
      when :size
        return "#{value / Configuration::MIB}m" if (value % Configuration::MIB).zero? && value.positive?
        return "#{value / Configuration::KIB}k" if (value % Configuration::KIB).zero? && value.positive?

        value.to_s
      else value.to_s
      end
    end
  end
end
