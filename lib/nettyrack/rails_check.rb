# frozen_string_literal: true

module Nettyrack
  # Rails settings that break under real threads or cost throughput there, each named at boot.
  # - Lazy loading: CRuby's GVL hides lazy loading races that JRuby's parallel threads hit at
  #   once: with config.eager_load off, the first requests build route caches and autoload
  #   constants concurrently, and fail (NoMethodError in ActionDispatch::Journey, uninitialized
  #   constants).
  # - Reloading: in production, code reloading (config.cache_classes not true) is a development
  #   setting left on: every request checks the source files and takes Rails' load interlock,
  #   which parallel threads then queue on.
  # - Rack::Lock (config.allow_concurrency = false): one request at a time, whatever the threads.
  # - Debug logging in production: every request formats and writes its debug lines through the
  #   logger's one lock (docs/rails-and-the-jvm.md has the measured cost).
  #
  # Flow: the app loaded (Lifetime, RackHandler) → BootChecks → here → a warning on stderr before serving.
  module RailsCheck
    module_function

    # The warnings for the boot output, none when all is well; +threads+ is the worker pool's maximum.
    def warnings(threads)
      return [] unless defined?(::Rails) && ::Rails.respond_to?(:application)

      app = ::Rails.application
      return [] if app.nil?

      [lazy_loading(app, threads), reloading(app), serialized(app, threads), debug_logging(app)].compact
    end

    def lazy_loading(app, threads)
      return nil if threads <= 1 || app.config.eager_load

      "nettyrack: warning: Rails runs on #{threads} threads with config.eager_load = false, so requests " \
        "race to load code lazily (NoMethodError, NameError); set config.eager_load = true (as " \
        "production does), or run with -t 1"
    end

    def reloading(app)
      return nil if app.config.cache_classes || !production?

      "nettyrack: warning: Rails reloads code in production (config.cache_classes is not true), so " \
        "every request checks the source files and takes Rails' load interlock; set " \
        "config.cache_classes = true (as a generated production.rb does)"
    end

    def serialized(app, threads)
      return nil if threads <= 1 || !rack_lock?(app)

      "nettyrack: warning: Rails' middleware has Rack::Lock (config.allow_concurrency = false), so " \
        "its #{threads} threads serve one request at a time; remove config.allow_concurrency = false, " \
        "or run with -t 1"
    end

    def debug_logging(app)
      return nil unless production? && debug_level?(app)

      "nettyrack: warning: Rails logs at debug level in production (config.log_level = :debug), so " \
        "every request formats and writes its debug lines through the logger's one lock; set " \
        "config.log_level = :info (as a generated production.rb does)"
    end

    def rack_lock?(app)
      defined?(::Rack::Lock) && app.respond_to?(:middleware) &&
        app.middleware.respond_to?(:any?) && app.middleware.any? { |m| m.respond_to?(:klass) && m.klass == ::Rack::Lock }
    end

    # The level the app's logger runs at (config.log_level only says what it was given).
    def debug_level?(app)
      logger = ::Rails.respond_to?(:logger) && ::Rails.logger
      level = logger.respond_to?(:level) ? logger.level : app.config.log_level
      [0, :debug, "debug"].include?(level)
    end

    def production?
      ::Rails.respond_to?(:env) && ::Rails.env.to_s == "production"
    end
  end
end
