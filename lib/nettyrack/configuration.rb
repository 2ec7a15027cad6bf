# frozen_string_literal: true

require "etc"
require_relative "coerce"
require_relative "file_settings"
require_relative "limits"
require_relative "restart_settings"

module Nettyrack
  # The settings one server runs with, and the one place their defaults live.
  #
  # Settings arrive in layers, each a Hash of values Coerce has already read (CLI#settings,
  # DSL.load, .env_layer, .port_layer, Server.new's keywords). .merge lays them over DEFAULTS,
  # later layers winning; the launcher's order is
  #
  #   DEFAULTS < RACK_ENV, RAILS_MAX/MIN_THREADS < config file (-C) < $PORT < command line
  #
  # Two keys merge specially: :binds (a layer naming any listener replaces the listeners of
  # the layers below it) and :threads ([nil, max] keeps the minimum below it, capped at max).
  class Configuration
    KIB = 1024
    MIB = 1024 * KIB

    DEFAULTS = {
      host: "0.0.0.0",            # where -p, `port` and $PORT listen
      port: 9292,                 # used when no layer names a listener
      threads: nil,               # computed: [cores, max(4, 2 x cores)], see .default_threads
      environment: "development", # RACK_ENV; development shows exception details in 500 bodies
      rackup: "config.ru",
      directory: nil,             # chdir here before loading the rackup file
      quiet: false,
      access_log: nil,            # nil: none; :stdout, or a file path
      proxy_protocol: false,      # true: every connection opens with a PROXY v1/v2 header
      http2: true,                # cleartext ports speak h2c too (prior knowledge, Upgrade: h2c)
      access_log_format: "common", # or "json" (AccessLogFormat in Java)
      control_url: nil,           # [host, port] or unix Bind of the control endpoint; nil: none
      control_token: nil,         # its token; nil: made up at boot; :none: no token asked for
      max_body_size: 100 * MIB,
      max_header_size: 16 * KIB,
      max_uri_length: 8 * KIB,
      max_headers: 100,
      max_chunk_extensions: 16 * KIB, # beyond a chunked body's data; a quarter per chunk
      max_concurrent_streams: 100, # HTTP/2 streams open at once on one connection
      http2_initial_window: 65_535, # HTTP/2 stream flow-control window (RFC 9113's default)
      http2_max_resets: 200,      # RST_STREAM per window (CVE-2023-44487, CVE-2025-8671)
      http2_reset_window: 30,     # seconds
      body_buffer: 128 * KIB,
      header_timeout: 30,         # seconds, as are the other timeouts
      body_timeout: 30,           # after the head; extended by 1 s per body_min_rate bytes received
      body_min_rate: 1 * KIB,     # bytes per second
      keep_alive_timeout: 20,
      write_timeout: 60,
      shutdown_timeout: 30,
      queue_size: 1024,
      max_connections: 0,         # 0: the process's open-file limit less 1024
      io_threads: 0,              # 0: one per core
      worker_nice: 10,            # Linux nice of the Netty door's workers (ThreadNice); 0: off
      file_cache: 1,              # seconds a --public path's lookup and file facts are reused
      file_cache_entries: 1024,   # paths file_cache keeps (each at most 16 KiB of bytes per file)
      max_message_size: 1 * MIB,  # WebSocket message received, fragments joined
      max_push_queue: 1 * MIB,    # bytes waiting for one slow WebSocket/SSE client
      push_timeout: 40,           # ping / keep-alive comment after this idle time
      control_timeout: 5,         # /thread-backtraces waits this long for a worker
      pubsub: nil,                # nil: in-process; a redis:// URL: through Redis (PubSub.setting)
      **FileSettings::DEFAULTS,   # public_dir, sendfile, early_hints... (see FileSettings)
      **RestartSettings::DEFAULTS # pidfile, warmup, restart_timeout... (see RestartSettings)
    }.freeze

    def self.merge(*layers, cores: Etc.nprocessors)
      below = DEFAULTS.merge(threads: default_threads(cores), binds: nil)
      new(layers.reduce(below) { |merged, layer| lay(merged, layer) })
    end

    # Few threads beyond the cores: on JRuby every runnable Ruby thread competes with the JIT's
    # compiler threads, and bench/rails measured Rails on two cores warming up to 434 req/s in
    # 120 s with 16 threads against 1,100-1,300 with 2 or 4. Apps that wait on I/O raise it
    # (-t, $RAILS_MAX_THREADS).
    def self.default_threads(cores)
      [cores, [4, 2 * cores].max]
    end

    # RACK_ENV, and the thread counts Rails apps set for their database pool: RAILS_MAX_THREADS
    # alone gives a fixed pool of that size, RAILS_MIN_THREADS lowers the minimum.
    def self.env_layer(env, cores: Etc.nprocessors)
      layer = {}
      layer[:environment] = env["RACK_ENV"] if present?(env["RACK_ENV"])
      max = from_env("RAILS_MAX_THREADS", env) { |value| Coerce.count(value) }
      min = from_env("RAILS_MIN_THREADS", env) { |value| Coerce.count(value) }
      return layer unless min || max

      max ||= [default_threads(cores).last, min].max
      layer.merge(threads: rails_threads(min || max, max))
    end

    # $PORT, as platforms such as Heroku set it: listen on DEFAULTS[:host] at that port.
    def self.port_layer(env)
      port = from_env("PORT", env) { |value| Coerce.port(value) }
      port ? { binds: [Bind.tcp(DEFAULTS[:host], port)] } : {}
    end

    def self.rails_threads(min, max)
      Coerce.threads_pair(min, max)
    rescue ConfigError => e
      raise ConfigError, "invalid $RAILS_MIN_THREADS/$RAILS_MAX_THREADS: #{e.message}"
    end

    def self.lay(below, layer)
      layer.each_with_object(below.dup) do |(key, value), merged|
        raise ArgumentError, "unknown setting #{key.inspect}" unless merged.key?(key)

        merged[key] = key == :threads ? lay_threads(merged[:threads], value) : value
      end
    end

    def self.lay_threads(below, (min, max))
      [min || [below.first, max].min, max]
    end

    def self.from_env(name, env)
      value = env[name]
      return nil unless present?(value)

      yield value
    rescue ConfigError => e
      raise ConfigError, "invalid $#{name}: #{e.message}"
    end

    def self.present?(value)
      value && !value.strip.empty?
    end

    private_class_method :rails_threads, :lay, :lay_threads, :from_env, :present?

    def initialize(settings)
      @settings = settings.freeze
    end

    def [](key)
      @settings.fetch(key)
    end

    # [Bind, ...]: the listeners of the top layer that named any, else host:port.
    def binds
      @settings[:binds] || [Bind.tcp(@settings[:host], @settings[:port])]
    end

    def threads = @settings[:threads]
    def environment = @settings[:environment]
    def rackup = @settings[:rackup]
    def directory = @settings[:directory]
    def access_log = @settings[:access_log]
    def control_url = @settings[:control_url]
    def pubsub = @settings[:pubsub]
    def quiet? = @settings[:quiet]
    def proxy_protocol? = @settings[:proxy_protocol]
    def http2? = @settings[:http2]
    def development? = environment == "development"

    def limits
      @settings.slice(*LIMIT_NAMES)
    end

    # The keywords JavaConfig.build and Server.new take (less the access log, an open stream).
    def server_options
      { binds: binds, threads: threads, proxy_protocol: proxy_protocol?, http2: http2?,
        **@settings.slice(:access_log_format, :control_url, :control_token, *FileSettings::NAMES), **limits }
    end
  end
end
