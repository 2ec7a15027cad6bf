# frozen_string_literal: true

require_relative "errors"
require_relative "configuration"
require_relative "java_config"
require_relative "app_loader"
require_relative "pubsub_setting"
require_relative "publishing"
require_relative "rack_options"
require_relative "rails_tuning"

module Nettyrack
  # Boots a web app's Rack application inside a servlet container (the servlet door's way in,
  # as the launcher is the command's: context params → here → Configuration → JavaConfig →
  # ServerConfig, and the app): the Java side
  # (org.nettyrack.jruby.HostedRuntime) makes the runtime, with GEM_PATH and RACK_ENV set, then
  # calls .boot with the context params; this loads the rackup the CLI's way (AppLoader) and
  # turns the settings a servlet door applies (the SETTINGS rows marked servlet), named as the
  # CLI's flags without the dashes (max-body-size; threads: how many requests run the app at
  # once, RAILS_MAX_THREADS else the CLI's default), into the ServerConfig the door reads; the
  # pubsub param, as the CLI's --pubsub (local, redis for $REDIS_URL, or a redis://,
  # redis-sentinel:// or redis-cluster:// URL), picks the engine that becomes Nettyrack.pubsub
  # and the door's. Every failure is a BootError of one line.
  #
  #   app, config, pubsub = Nettyrack::HostedApp.boot({ "rackup.path" => "/WEB-INF/config.ru" }, "/srv/app", log)
  module HostedApp
    module_function

    # params: String => String; root: the web app's directory; log: anything with #accept(String).
    def boot(params, root, log)
      app_root = resolve(root, params["app.root"] || "/WEB-INF")
      raise BootError, "app.root #{app_root} is not a directory" unless File.directory?(app_root)

      Dir.chdir(app_root)
      setting = pubsub_setting(params["pubsub"])
      app = load_app(params, root)
      config = server_config(params, log) # after the app: its database pools bound the wait threads
      RailsTuning.apply
      engine = PubSubSetting.engine(setting, history: history(params))
      Nettyrack.pubsub = engine if engine
      [RailsTuning.app(app), config, Nettyrack.pubsub]
    end

    # The push-history, push-history-ttl and push-history-channels params, as the CLI's flags.
    def history(params)
      RackOptions.history_from { |row| params[row.flag.delete_prefix("--")] }
    rescue ConfigError => e
      raise ConfigError, "invalid push history param: #{e.message}"
    end

    def pubsub_setting(value)
      PubSubSetting.setting(value)
    rescue ConfigError => e
      raise ConfigError, "invalid pubsub: #{e.message}"
    end

    # jruby-rack's paths are relative to the web app's root ("/WEB-INF/config.ru"); a path that
    # is not there but exists on its own is taken as it is.
    def resolve(root, path)
      inside = File.join(root, path)
      File.exist?(inside) || !File.exist?(path) ? File.expand_path(inside) : File.expand_path(path)
    end

    def load_app(params, root)
      script = params["rackup"]
      return from_string(script) if script && !script.strip.empty?

      AppLoader.load(resolve(root, params["rackup.path"] || "/WEB-INF/config.ru"))
    end

    def from_string(script)
      AppLoader.require_rack
      Rack::Builder.new_from_string(script, "(rackup context param)")
    rescue SyntaxError => e
      raise BootError, Nettyrack.describe_syntax_error(e)
    rescue ScriptError, StandardError => e
      raise BootError, "error loading the rackup context param: #{e.message.lines.first&.strip} (#{e.class})"
    end

    # The settings a servlet door applies (the SETTINGS rows marked servlet: the head limits
    # behind the container's parser, whose own may be larger, body, push and worker settings),
    # each from the param named as its flag; one of the other limits given is logged as ignored.
    def server_config(params, log)
      layer = {}
      (Settings::SERVLET | Settings::BUILDER).each do |row|
        name = row.flag.delete_prefix("--")
        value = params[name]
        next if value.nil?

        unless row.servlet
          log.accept("#{name}=#{value} ignored: in a servlet container the container's own settings apply")
          next
        end
        layer[row.name] = read(row, name, value)
      end
      JavaConfig.fit_to_pools(JavaConfig.build(Configuration.merge(Configuration.env_layer(ENV).slice(:threads), layer)))
    end

    def read(row, name, value)
      row.read(value)
    rescue ConfigError => e
      raise ConfigError, "invalid #{name}: #{e.message}"
    end
  end
end
