# frozen_string_literal: true

require "uri"
require_relative "errors"

module Nettyrack
  # The pub/sub engine setting: where client.subscribe/publish and Nettyrack.publish messages
  # travel. nil is in-process (Nettyrack.pubsub's LocalPubSub: this process only); a redis://
  # or rediss:// URL is through that Redis server, shared by every nettyrack process using it;
  # a redis-sentinel:// URL through the master its sentinels name, followed across failovers;
  # a redis-cluster:// URL through a Redis Cluster's sharded pub/sub (seed nodes listed).
  #
  #   PubSubSetting.setting("redis://10.0.0.5:6379/2")  # => "redis://10.0.0.5:6379/2" (checked)
  #   PubSubSetting.setting("redis", ENV)               # => ENV["REDIS_URL"] (checked)
  #   PubSubSetting.setting("local")                    # => nil
  #   PubSubSetting.engine(url, errors: $stderr)        # => a started RedisPubSub (ClusterPubSub for redis-cluster://)
  #   PubSubSetting.engine(nil, history: { messages: 100, ttl: 300, channels: 10_000 }) # => a LocalPubSub keeping history
  #   PubSubSetting.serving(url, errors: $stderr) { ... } # Nettyrack.pubsub is that engine in the block
  #
  # setting is parsing only (the CLI and config file use it); engine and serving need the jars.
  #
  # Flow: --pubsub / pubsub / -O pubsub / the pubsub context param → .setting → Configuration →
  #   .engine → Nettyrack.pubsub.
  module PubSubSetting
    module_function

    USAGE = "use local, redis for $REDIS_URL, redis://[:PASSWORD@]HOST[:PORT][/DB] (rediss:// for TLS), " \
            "redis-sentinel://[:PASSWORD@]HOST[:PORT][,HOST[:PORT]...]/MASTER-NAME[/DB], " \
            "or redis-cluster://[:PASSWORD@]HOST[:PORT][,HOST[:PORT]...]"
    SENTINEL_SHAPE = "use redis-sentinel://[:PASSWORD@]HOST[:PORT][,HOST[:PORT]...]/MASTER-NAME[/DB]"
    CLUSTER_SHAPE = "use redis-cluster://[:PASSWORD@]HOST[:PORT][,HOST[:PORT]...]"
    HOST_PORT = %r{(?:\[[0-9A-Fa-f:.%]+\]|[\w.-]+)(?::\d{1,5})?}
    SENTINEL = %r{\Aredis-sentinel://(?:[^@/]*@)?#{HOST_PORT}(?:,#{HOST_PORT})*/[^/?#]+(?:/\d{1,5})?\z}
    CLUSTER = %r{\Aredis-cluster://(?:[^@/]*@)?#{HOST_PORT}(?:,#{HOST_PORT})*\z}
    URL_SHAPE = "use redis://[:PASSWORD@]HOST[:PORT][/DB]"

    def setting(value, env = ENV)
      case value
      when nil, false, "local", :local then nil
      when "redis", :redis then from_env(env)
      else url(value)
      end
    end

    # A redis://, rediss://, redis-sentinel:// or redis-cluster:// URL, returned as given once
    # it is known to be usable.
    def url(value)
      text = value.to_s.strip
      return sentinel_url(value, text) if text.start_with?("redis-sentinel://")
      return cluster_url(value, text) if text.start_with?("redis-cluster://")
      raise ConfigError, "#{value.inspect} is not a pub/sub engine (#{USAGE})" unless text.match?(%r{\Arediss?://})

      problem = url_problem(URI.parse(text))
      raise ConfigError, "#{value.inspect} is not a Redis URL (#{problem})" if problem

      text
    rescue URI::InvalidURIError
      raise ConfigError, "#{value.inspect} is not a Redis URL (#{URL_SHAPE})"
    end

    NO_HISTORY = { messages: 0, ttl: 0, channels: 0 }.freeze

    # The engine for a setting: nil for in-process without history (Nettyrack.pubsub stays as
    # it is), an in-process LocalPubSub keeping history, or the one the URL's scheme names
    # (EngineBuilder.of: RedisPubSub keeping history in Redis Streams, ClusterPubSub),
    # connecting in the background and logging its trouble to errors.
    # history: { messages:, ttl: (seconds), channels: } (Configuration#push_history).
    def engine(setting, history: NO_HISTORY, errors: $stderr)
      limits = history_limits(history)
      if setting
        redis(setting, limits, errors)
      elsif limits.on
        Java::OrgNettyrackCorePush::LocalPubSub.new(Java::OrgNettyrackCore::ErrorLog.new(errors.to_outputstream), limits)
      end
    rescue Java::JavaLang::IllegalArgumentException => e
      raise ConfigError, e.message
    end

    def redis(setting, limits, errors)
      Java::OrgNettyrackRedis::EngineBuilder.of(setting).history(limits).logTo(errors.to_outputstream).start
    end

    def history_limits(history)
      Java::OrgNettyrackCorePush::HistoryLimits.of(history[:messages], (history[:ttl] * 1000).round, history[:channels])
    end

    # Runs the block with the engine for setting as the process's (Nettyrack.pubsub), then
    # puts the previous one back and closes the engine. In-process without history changes nothing.
    def serving(setting, history: NO_HISTORY, errors: $stderr)
      engine = engine(setting, history: history, errors: errors) or return yield
      outer = Nettyrack.pubsub
      Nettyrack.pubsub = engine
      begin
        yield
      ensure
        Nettyrack.pubsub = outer
        engine.close
      end
    end

    def from_env(env)
      value = env["REDIS_URL"].to_s
      raise ConfigError, "$REDIS_URL is not set (set it, or give the URL: redis://HOST:PORT)" if value.strip.empty?

      url(value)
    rescue ConfigError => e
      raise ConfigError, e.message.start_with?("$REDIS_URL") ? e.message : "invalid $REDIS_URL: #{e.message}"
    end

    # The shape only: the engine (Java's SentinelUrl) says more about a URL this lets through.
    def sentinel_url(value, text)
      raise ConfigError, "#{value.inspect} is not a Redis Sentinel URL (#{SENTINEL_SHAPE})" unless text.match?(SENTINEL)

      text
    end

    # The shape only: the engine (Java's ClusterUrl) says more about a URL this lets through.
    def cluster_url(value, text)
      raise ConfigError, "#{value.inspect} is not a Redis Cluster URL (#{CLUSTER_SHAPE})" unless text.match?(CLUSTER)

      text
    end

    def url_problem(uri)
      return "no host" if uri.host.to_s.empty?
      return "port #{uri.port} is not in 1..65535" if uri.port && !uri.port.between?(1, 65_535)
      return "no ?query or #fragment allowed" if uri.query || uri.fragment
      return "the path must be a database number, like /0" unless uri.path.to_s.match?(%r{\A(?:/\d{0,5})?\z})

      nil
    end

    private_class_method :from_env, :sentinel_url, :cluster_url, :url_problem, :redis, :history_limits
  end
end
