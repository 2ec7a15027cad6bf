# frozen_string_literal: true

require "etc"
require_relative "coerce"
require_relative "settings"

module Nettyrack
  # The settings one server runs with: CLI / config file (DSL) / $PORT / Server.new keywords →
  # layers → here (merged once, over DEFAULTS) → ServerSetup (JavaConfig → ServerConfig, Java)
  # → Server. Read-only once merged: the launcher hands its one Configuration down.
  #
  # Settings arrive in layers, each a Hash of values Coerce has already read (CLI#settings,
  # DSL.load, .env_layer, .port_layer, .keyword_layer). .merge lays them over DEFAULTS,
  # later layers winning; the launcher's order is
  #
  #   DEFAULTS < RACK_ENV, RAILS_MAX/MIN_THREADS < config file (-C) < $PORT < command line
  #
  # Three keys merge specially: :binds (a layer naming any listener replaces the listeners of
  # the layers below it), :threads ([nil, max] keeps the minimum below it, capped at max) and
  # :not_applied (the lines of every layer).
  class Configuration
    KIB = Settings::KIB
    MIB = Settings::MIB

    # Every setting's default, from its SETTINGS row (settings.rb), the one place Ruby writes
    # one. Java's settings records (ServerConfig.defaults) hold the same values for embedders that
    # never pass through Ruby; java_config_spec keeps the two equal. threads is nil here:
    # .merge computes it from the cores (.default_threads).
    DEFAULTS = Settings::DEFAULTS

    def self.merge(*layers, cores: Etc.nprocessors)
      below = DEFAULTS.merge(threads: default_threads(cores))
      merged = layers.reduce(below) { |settings, layer| lay(settings, layer) }
      merged[:wait_threads] ||= layers.any? { |layer| layer.key?(:threads) } ? 0 : default_wait_threads(merged[:threads].last)
      new(merged)
    end

    # Few threads beyond the cores: on JRuby every runnable Ruby thread competes with the JIT's
    # compiler threads, and bench/rails measured Rails on two cores warming up to 434 req/s in
    # 120 s with 16 threads against 1,100-1,300 with 2 or 4. Apps that wait on I/O raise it
    # (-t, $RAILS_MAX_THREADS).
    def self.default_threads(cores)
      [cores, [4, 2 * cores].max]
    end

    # Threads that wait on a database or another service hold a thread but not a core: a pool
    # at the default counts may grow this far beyond its maximum while requests queue and the
    # CPU has room (Java's WaitingThreads), and comes back when the cores are busy. A pool whose
    # size was chosen (-t, $RAILS_MAX_THREADS, the config file) keeps it: 0 then. (Java's
    # WorkerSettings.defaultWaitThreads says the same, java_config_spec checks.)
    def self.default_wait_threads(max)
      2 * max
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

    # Server.new's keywords (rackup's options too: RackOptions) as one settings layer, each value
    # read by its SETTINGS row (Settings::KEYWORDS), so "10m" and "500ms" work; nil is the
    # default. host and port name one more listener beside binds (the default one when no
    # keyword names any). A keyword no row takes is an ArgumentError naming it.
    def self.keyword_layer(**keywords)
      unknown = keywords.keys - Settings::KEYWORD_NAMES
      raise ArgumentError, "unknown keyword#{'s' if unknown.size > 1}: #{unknown.join(', ')}" if unknown.any?

      layer = keywords.compact.to_h { |name, value| [name, keyword(Settings.fetch(name), value)] }
      host = layer.delete(:host)
      port = layer.delete(:port)
      listeners = layer.delete(:binds) || []
      listeners += [Bind.tcp(host || DEFAULTS[:host], port || DEFAULTS[:port])] if host || port || listeners.empty?
      layer.merge(binds: listeners)
    end

    # The settings Server.new's keywords give: .keyword_layer over DEFAULTS.
    def self.from_keywords(**keywords)
      merge(keyword_layer(**keywords))
    end

    def self.keyword(row, value)
      return row.read(value) unless row.into == :list

      Array(value).map { |item| row.read(item) }.freeze # a Hash of prefix => value too, as pairs
    rescue ConfigError => e
      raise ConfigError, "invalid #{row.name}: #{e.message}"
    end

    def self.rails_threads(min, max)
      Coerce.threads_pair(min, max)
    rescue ConfigError => e
      raise ConfigError, "invalid $RAILS_MIN_THREADS/$RAILS_MAX_THREADS: #{e.message}"
    end

    def self.lay(below, layer)
      layer.each_with_object(below.dup) do |(key, value), merged|
        raise ArgumentError, "unknown setting #{key.inspect}" unless merged.key?(key)

        merged[key] = case key
                      when :threads then lay_threads(merged[:threads], value)
                      when :not_applied then [*merged[key], *value] # every layer's lines
                      else value
                      end
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

    private_class_method :keyword, :rails_threads, :lay, :lay_threads, :from_env, :present?

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
    def metrics_url = @settings[:metrics_url]
    def pubsub = @settings[:pubsub]

    # The push history's limits: { messages:, ttl:, channels: } (messages 0: none).
    def push_history
      { messages: @settings[:push_history], ttl: @settings[:push_history_ttl], channels: @settings[:push_history_channels] }
    end
    def quiet? = @settings[:quiet]
    def proxy_protocol? = @settings[:proxy_protocol]
    def http2? = @settings[:http2]
    def development? = environment == "development"

    # The values ServerConfig.Builder takes one by one (the limits and tuning rows).
    def limits
      @settings.slice(*Settings::BUILDER_NAMES)
    end
  end
end
