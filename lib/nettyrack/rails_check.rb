# frozen_string_literal: true

module Nettyrack
  # Rails settings that break under real threads. CRuby's GVL hides lazy loading races that
  # JRuby's parallel threads hit at once: with config.eager_load off, the first requests build
  # route caches and autoload constants concurrently, and fail (NoMethodError in
  # ActionDispatch::Journey, uninitialized constants). In production, code reloading
  # (config.cache_classes not true) is a development setting left on: every request checks the
  # source files and takes Rails' load interlock, which parallel threads then queue on.
  #
  # Flow: the app loaded (Lifetime, RackHandler) → BootChecks → here → a warning on stderr before serving.
  module RailsCheck
    module_function

    # A warning for the boot output, or nil; +threads+ is the worker pool's maximum.
    def warning(threads)
      return nil unless defined?(::Rails) && ::Rails.respond_to?(:application)

      app = ::Rails.application
      return nil if app.nil?

      lazy_loading(app, threads) || reloading(app)
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

    def production?
      ::Rails.respond_to?(:env) && ::Rails.env.to_s == "production"
    end
  end
end
