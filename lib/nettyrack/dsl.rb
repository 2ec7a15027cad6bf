# frozen_string_literal: true

require "uri"
require_relative "coerce"
require_relative "configuration"
require_relative "control"
require_relative "file_settings"
require_relative "limits"
require_relative "pubsub"
require_relative "restart_settings"

module Nettyrack
  # A config file (nettyrack -C FILE): Ruby that calls the methods below, read into a settings
  # layer for Configuration.merge. Flags on the command line and $PORT win over it. Values may
  # be numbers or strings ("10m", "500ms"); ENV and any Ruby work as usual:
  #
  #   # config/nettyrack.rb
  #   port ENV.fetch("APP_PORT", 3000)
  #   threads 4, 32
  #   max_body_size "20m"
  #
  # A method this file does not define is an error naming the file and line.
  class DSL
    def self.load(path)
      dsl = new(path)
      dsl.instance_eval(File.read(path), path, 1)
      dsl.layer
    rescue Errno::ENOENT, Errno::EACCES, Errno::EISDIR => e
      raise ConfigError, "cannot read config file #{path}: #{Nettyrack.describe_system_error(e)}"
    rescue SyntaxError => e
      raise ConfigError, Nettyrack.describe_syntax_error(e)
    rescue ConfigError => e
      raise ConfigError, "#{location(e, path)}: #{e.message}"
    rescue StandardError, ScriptError => e
      raise ConfigError, "#{location(e, path)}: #{e.message} (#{e.class})"
    end

    # "FILE:LINE" of the config file line that raised +error+, or just FILE.
    def self.location(error, path)
      frame = error.backtrace_locations&.find { |loc| loc.path == path }
      frame ? "#{path}:#{frame.lineno}" : path
    end
    private_class_method :location

    def initialize(path)
      @path = path
      @layer = {}
    end

    # Listen on HOST:PORT (host defaults to 0.0.0.0). Repeat, or mix with `bind`, to listen on
    # several; any of them replaces the default 0.0.0.0:9292.
    #   port 3000
    #   port 3000, "127.0.0.1"
    def port(number, host = Configuration::DEFAULTS[:host])
      add_bind(Bind.tcp(host, Coerce.port(number)))
    end

    # Listen on a tcp://, ssl:// or unix:// URI; a unix socket takes mode (octal, applied after
    # the bind) and backlog, TLS its certificate (see ssl_bind).
    #   bind "tcp://127.0.0.1:3000"
    #   bind "tcp://[::1]:3000"
    #   bind "ssl://0.0.0.0:9443?cert=/etc/app/fullchain.pem&key=/etc/app/privkey.pem"
    #   bind "unix:///run/app/app.sock?mode=0660"
    def bind(uri)
      add_bind(Coerce.bind(uri))
    end

    # Puma's spelling of an ssl:// bind: host, port and the bind's params as a Hash (keystore_pass
    # for keystore-pass).
    #   ssl_bind "0.0.0.0", 9443, { cert: "config/server.pem", key: "config/server.key" }
    #   ssl_bind "0.0.0.0", 9443, keystore: "server.p12", keystore_pass: ENV["KEYSTORE_PASS"]
    #   ssl_bind "0.0.0.0", 9443, cert: "server.pem", key: "server.key", verify_mode: "force_peer", ca: "ca.pem"
    #   ssl_bind "0.0.0.0", 9443, cert: "server.pem", key: "server.key", alpn: "http/1.1" # no HTTP/2 here
    def ssl_bind(host, port, options = {}, **keywords)
      params = options.merge(keywords).to_h { |name, value| [name.to_s.tr("_", "-").sub("verify-mode", "verify_mode"), value.to_s] }
      address = host.to_s.include?(":") ? "[#{host}]" : host
      add_bind(Coerce.bind("ssl://#{address}:#{port}?#{URI.encode_www_form(params)}"))
    end

    # Worker threads running the app: a minimum kept alive and a maximum, or just the maximum.
    #   threads 4, 32
    #   threads 16
    def threads(min, max = nil)
      set(:threads, max.nil? ? Coerce.threads_pair(nil, min) : Coerce.threads_pair(min, max))
    end

    # RACK_ENV; "development" puts exception details in 500 bodies.
    #   environment ENV.fetch("RACK_ENV", "production")
    def environment(name)
      set(:environment, name.to_s)
    end

    # The rackup file to load (relative to `directory`, when that is set).
    #   rackup "config/app.ru"
    def rackup(path)
      set(:rackup, path.to_s)
    end

    # Change to this directory before loading the rackup file.
    #   directory "/srv/app/current"
    def directory(path)
      set(:directory, path.to_s)
    end

    # Print nothing on boot and shutdown.
    #   quiet
    #   quiet false
    def quiet(flag = true)
      set(:quiet, Coerce.boolean(flag))
    end

    # One line per request: to stdout, to a file (appended), or nowhere.
    #   access_log
    #   access_log "log/access.log"
    #   access_log false
    def access_log(path = :stdout)
      set(:access_log, path == false || path.nil? ? nil : path)
    end

    # Behind a load balancer that opens every connection with a PROXY protocol header (v1 or
    # v2, e.g. haproxy's send-proxy, nginx's proxy_protocol on, AWS NLB): REMOTE_ADDR becomes
    # the client address it names. A connection without a valid header is then closed.
    #   proxy_protocol
    #   proxy_protocol false
    def proxy_protocol(flag = true)
      set(:proxy_protocol, Coerce.boolean(flag))
    end

    # HTTP/2 on cleartext ports (h2c, by prior knowledge or Upgrade: h2c) besides HTTP/1.1: on
    # unless turned off. A proxy in front that speaks h2c to its backends can use it.
    #   http2 false
    def http2(flag = true)
      set(:http2, Coerce.boolean(flag))
    end

    # Static files answered before the app, on the I/O threads (GET and HEAD; anything else,
    # and paths with no file, go on to the app). Rails: public_dir "public".
    #   public_dir "public"
    #   public_cache_control "/assets/", "public, max-age=31536000, immutable"
    #   public_dotfiles             # serve .well-known/ and the like too
    def public_dir(dir)
      set(:public_dir, FileSettings.public_dir(dir))
    end

    def public_cache_control(prefix, value)
      set(:public_cache_control, [*@layer[:public_cache_control], FileSettings.cache_rule([prefix, value])])
    end

    def public_dotfiles(flag = true)
      set(:public_dotfiles, Coerce.boolean(flag))
    end

    # Honour x-sendfile response headers (Rack::Sendfile); on whenever public_dir is.
    #   sendfile
    def sendfile(flag = true)
      set(:sendfile, Coerce.boolean(flag))
    end

    # env["rack.early_hints"] sends 103 responses (on by default; some old proxies mishandle 1xx).
    #   early_hints false
    def early_hints(flag = true)
      set(:early_hints, Coerce.boolean(flag))
    end

    # The access log's lines: "common" (Rack::CommonLogger's, the default) or "json".
    #   access_log_format :json
    def access_log_format(format)
      set(:access_log_format, Coerce.access_log_format(format))
    end

    # The file that names the serving process (written once it serves; a hot restart's new
    # process writes its own before the old one drains).
    #   pidfile "tmp/pids/server.pid"
    def pidfile(path)
      set(:pidfile, RestartSettings.pidfile(path))
    end

    # Requests run through the app before the server accepts connections, so the JIT has
    # compiled them when users arrive: a file (one request a line, see Warmup), or a block.
    # Default: none on a plain boot, GET / in a hot restart's new process; false: never.
    #   warmup "config/warmup.txt"
    #   warmup do
    #     get "/"
    #     get "/products/1"
    #     post "/search", "q=shoes"
    #   end
    #   warmup_time 45        # seconds at most (sooner once throughput is flat)
    #   warmup_requests 5000  # or after this many answers
    def warmup(file = nil, &block)
      if block
        builder = Warmup::Builder.new
        builder.instance_eval(&block)
        raise ConfigError, "the warmup block names no requests" if builder.requests.empty?

        return set(:warmup, builder.requests)
      end
      set(:warmup, RestartSettings.warmup(file))
    end

    def warmup_time(seconds)
      set(:warmup_time, RestartSettings.warmup_time(seconds))
    end

    def warmup_requests(count)
      set(:warmup_requests, Coerce.count(count))
    end

    # Seconds a hot restart's new process has to boot, warm up and serve before it is given up;
    # how much lower in priority (nice) it boots and warms up, so that this one serves first.
    #   restart_timeout 300
    #   restart_nice 10
    def restart_timeout(seconds)
      set(:restart_timeout, RestartSettings.restart_timeout(seconds))
    end

    def restart_nice(nice)
      set(:restart_nice, RestartSettings.restart_nice(nice))
    end

    # The control endpoint (GET /stats, GET /thread-backtraces, POST /stop, POST /restart,
    # GET /ready, GET /health), for nettyrack ctl and probes.
    # Keep it on a loopback or private address, or a unix socket. Without control_token, a
    # random token is made up and printed at boot.
    #   control_url "tcp://127.0.0.1:9293"
    #   control_url "unix:///run/app/ctl.sock?mode=0600"
    def control_url(url)
      set(:control_url, Control.url(url))
    end

    # The token control requests must carry (?token= or Authorization: Bearer).
    #   control_token ENV.fetch("NETTYRACK_CONTROL_TOKEN")
    def control_token(token)
      set(:control_token, Control.token_setting(token))
    end

    # Ask control requests for no token at all.
    #   no_control_token
    def no_control_token
      set(:control_token, :none)
    end

    # Puma's spelling of the three above, for config files moving over from Puma (its options
    # hash in braces works too).
    #   activate_control_app "tcp://127.0.0.1:9293", auth_token: "s3cret"
    #   activate_control_app "tcp://127.0.0.1:9293", { no_token: true }
    def activate_control_app(url, options = {}, **keywords)
      options = options.merge(keywords)
      control_url(url)
      control_token(options[:auth_token]) if options[:auth_token]
      no_control_token if options[:no_token]
      nil
    end

    # Where client.subscribe/publish and Nettyrack.publish messages travel: through a Redis
    # server, so they reach every process using it; :redis for $REDIS_URL; :local (default)
    # for this process only.
    #   pubsub "redis://10.0.0.5:6379/0"
    #   pubsub :redis
    def pubsub(url)
      set(:pubsub, PubSub.setting(url))
    end

    # Limits and timeouts (sizes: bytes or "64k", "10m"; durations: seconds or "500ms"):
    #   max_body_size 10 * 1024 * 1024   # largest request body; 413 beyond
    #   max_header_size "16k"            # largest request header block; 431 beyond
    #   max_uri_length "8k"              # longest request line; 414 beyond
    #   max_headers 100                  # most request header fields; 431 beyond
    #   body_buffer "128k"               # body bytes held in memory before a temp file
    #   header_timeout 30                # seconds a client has to send a request head
    #   keep_alive_timeout 20            # seconds an idle keep-alive connection stays open
    #   write_timeout 60                 # seconds a write waits for a client that does not read
    #   shutdown_timeout 30              # seconds in-flight requests get on SIGTERM/SIGINT
    #   queue_size 1024                  # requests waiting for a thread; 503 beyond
    #   io_threads 0                     # Netty event-loop threads; 0: one per core
    #   worker_nice 10                   # nice of the worker threads (0-19); 0: off
    #   max_message_size "1m"            # largest WebSocket message received; 1009 beyond
    #   max_push_queue "1m"              # bytes queued for a slow push client; 1008 beyond
    #   push_timeout 40                  # idle seconds before a ping / SSE keep-alive comment
    #   control_timeout 5                # seconds /thread-backtraces waits for a worker
    LIMITS.each do |limit|
      define_method(limit.name) { |value| set(limit.name, limit.coerce(value)) }
    end

    def layer
      @layer.dup
    end

    private

    def set(key, value)
      @layer[key] = value
      nil
    end

    def add_bind(bind)
      (@layer[:binds] ||= []) << bind
      nil
    end

    def method_missing(name, *args, &block)
      return super if name.end_with?("?", "!", "=")

      known = (self.class.public_instance_methods(false) - [:layer]).sort.join(", ")
      raise ConfigError, "unknown setting `#{name}' (the settings are: #{known})"
    end

    def respond_to_missing?(_name, _include_private = false)
      false
    end
  end
end
