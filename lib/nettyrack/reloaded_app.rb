# frozen_string_literal: true

require_relative "app_loader"
require_relative "dsl"
require_relative "errors"
require_relative "lowlevel_errors"
require_relative "rails_tuning"

module Nettyrack
  # Runs inside a new JRuby runtime that a reload made (org.nettyrack.jruby.AppRuntime), and
  # loads the application's new version there as the launcher loaded the first: Bundler when
  # the server runs under it, nettyrack's Ruby side (its classes are the JVM's already), the
  # server's pub/sub engine as Nettyrack.pubsub, then the config file's `app` or the rackup
  # (AppLoader), behind the config file's lowlevel_error_handler. A failure is a BootError or
  # ConfigError of one line, which the Java side turns into a BootFailure.
  #
  #   app = Nettyrack::ReloadedApp.boot({ "rackup" => "/srv/app/config.ru", "config_file" => nil,
  #                                       "bundler" => "true" }, pubsub)
  #
  # Flow: AppReload (the serving runtime) → AppRuntime.boot (Java) → here → the app, into a RackBridge.
  module ReloadedApp
    module_function

    def boot(spec, pubsub)
      bundle if spec["bundler"] == "true"
      require_relative "../nettyrack"
      Nettyrack.pubsub = pubsub
      file = spec["config_file"] ? DSL.load(spec["config_file"]) : {}
      app = file[:app] || AppLoader.load(spec["rackup"])
      handler = file[:lowlevel_error_handler]
      app = LowlevelErrors.new(app, handler, err: $stderr) if handler
      RailsTuning.apply
      RailsTuning.app(app)
    end

    def bundle
      require "bundler/setup"
    rescue LoadError, StandardError => e
      raise BootError, "Bundler could not set up the new runtime: #{e.message.lines.first&.strip} (#{e.class})"
    end
  end
end
