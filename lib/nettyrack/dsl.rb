# frozen_string_literal: true

require "uri"
require_relative "coerce"
require_relative "configuration"
require_relative "puma_dsl"
require_relative "settings"

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
  # A method this file does not define is an error naming the file and line. Puma's config
  # file methods work too (PumaDSL): a config/puma.rb loads unchanged.
  #
  # Flow: nettyrack -C FILE (Launcher, Ctl) → here (methods made from the SETTINGS rows) → a layer →
  #   Configuration.merge.
  class DSL
    include PumaDSL

    # The config file a Puma user expects without -C: the first of these that exists.
    FILES = %w[config/nettyrack.rb config/puma.rb].freeze

    def self.find
      FILES.find { |name| File.file?(name) }
    end

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

    # Listen on HOST:PORT (host defaults to 0.0.0.0, or set_default_host's). Repeat, or mix
    # with `bind`, to listen on several; any of them replaces the default 0.0.0.0:9292.
    #   port 3000
    #   port 3000, "127.0.0.1"
    def port(number, host = nil)
      lay(:binds, Bind.tcp(host || default_host, Coerce.port(number)))
    end

    # Listen on a tcp://, ssl:// or unix:// URI; a unix socket takes mode (octal, applied after
    # the bind) and backlog, TLS its certificate (see ssl_bind).
    #   bind "tcp://127.0.0.1:3000"
    #   bind "tcp://[::1]:3000"
    #   bind "ssl://0.0.0.0:9443?cert=/etc/app/fullchain.pem&key=/etc/app/privkey.pem"
    #   bind "unix:///run/app/app.sock?mode=0660"
    def bind(uri)
      lay(:binds, Coerce.bind(uri))
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
      lay(:binds, Coerce.bind("ssl://#{address}:#{port}?#{URI.encode_www_form(params)}"))
    end

    # Worker threads running the app: a minimum kept alive and a maximum, or just the maximum.
    #   threads 4, 32
    #   threads 16
    def threads(min, max = nil)
      lay(:threads, max.nil? ? Coerce.threads_pair(nil, min) : Coerce.threads_pair(min, max))
    end

    # Static files answered before the app, on the I/O threads (GET and HEAD; anything else,
    # and paths with no file, go on to the app). Rails: public_dir "public".
    #   public_dir "public"
    #   public_cache_control "/assets/", "public, max-age=31536000, immutable"
    #   public_dotfiles             # serve .well-known/ and the like too
    def public_cache_control(prefix, value)
      lay(:public_cache_control, FileSettings.cache_rule([prefix, value]))
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

        return lay(:warmup, builder.requests)
      end
      lay(:warmup, RestartSettings.warmup(file))
    end

    # Puma's spelling of control_url, control_token and no_control_token (below), for config
    # files moving over from Puma (its options hash in braces works too); "auto" (or no URL):
    # a unix socket in the temp directory, which the state file (state_path) names.
    #   activate_control_app "tcp://127.0.0.1:9293", auth_token: "s3cret"
    #   activate_control_app "tcp://127.0.0.1:9293", { no_token: true }
    def activate_control_app(url = "auto", options = {}, **keywords)
      options = options.merge(keywords)
      url = "unix://#{Dir.tmpdir}/nettyrack-control-#{Process.pid}-#{rand(1 << 32).to_s(36)}.sock" if url == "auto"
      control_url(url)
      control_token(options[:auth_token]) if options[:auth_token]
      no_control_token if options[:no_token]
      nil
    end

    # Every other setting: one method per SETTINGS row, taking what its flag takes (numbers or
    # strings: "10m", "500ms"); those that switch something on take no argument for true.
    #   environment :production          # RACK_ENV; development puts exception details in 500 bodies
    #   rackup "config/app.ru"           # relative to `directory`, when that is set
    #   directory "/srv/app/current"     # chdir here before loading the rackup file
    #   quiet                            # print nothing on boot and shutdown
    #   access_log "log/access.log"      # or access_log (stdout), access_log false
    #   access_log_format :json          # or "common" (Rack::CommonLogger's line)
    #   log_format :json                 # the server's own lines as JSON (default "text")
    #   proxy_protocol                   # each connection opens with a PROXY v1/v2 header
    #   http2 false                      # cleartext ports serve HTTP/1.1 only
    #   public_dir "public"              # static files answered before the app (Rails: "public")
    #   public_dotfiles                  # serve .well-known/ and the like too
    #   sendfile                         # honour x-sendfile headers; on whenever public_dir is
    #   early_hints false                # no env["rack.early_hints"] (103 responses)
    #   pidfile "tmp/pids/server.pid"    # written once it serves
    #   warmup_time 45                   # a warm-up's seconds at most (sooner once throughput is flat)
    #   warmup_requests 5000             # or after this many answers
    #   restart_timeout 300              # seconds a hot restart's new process has to serve
    #   restart_nice 10                  # how much lower in priority it boots and warms up
    #   control_url "tcp://127.0.0.1:9293" # GET /stats, /thread-backtraces, POST /stop, /restart...
    #   control_token ENV.fetch("NETTYRACK_CONTROL_TOKEN") # or no_control_token
    #   pubsub "redis://10.0.0.5:6379/0" # or :redis for $REDIS_URL, :local (default),
    #                                    # redis-sentinel://..., redis-cluster://HOST:PORT,HOST:PORT
    #   max_body_size "10m"              # and every limit and tuning value: nettyrack --help
    SETTINGS.each do |row|
      if row.dsl == true && row.bare.nil?
        define_method(row.name) { |value| lay(row.name, row.read(value)) }
      elsif row.dsl == true
        bare = row.bare
        define_method(row.name) { |value = bare| lay(row.name, row.read(value)) }
      end
      row.also.select(&:dsl).each { |aka| define_method(aka.dsl) { lay(row.name, aka.value) } }
      define_method(row.puma) { |value| lay(row.name, row.read(value)) } if row.puma
    end

    def layer
      @layer.dup
    end

    private

    def lay(name, value)
      Settings.fetch(name).lay(@layer, value)
      nil
    end

    def method_missing(name, *args, &block)
      return super if name.end_with?("?", "=")

      known = (self.class.public_instance_methods(false) - [:layer]).sort.join(", ")
      raise ConfigError, "unknown setting `#{name}' (the settings are: #{known}; and Puma's, see docs/puma.md)"
    end

    def respond_to_missing?(_name, _include_private = false)
      false
    end
  end
end
