# frozen_string_literal: true

module Nettyrack
  # Rails settings that break under real threads. CRuby's GVL hides lazy loading races that
  # JRuby's parallel threads hit at once: with config.eager_load off, the first requests build
  # route caches and autoload constants concurrently, and fail (NoMethodError in
  # ActionDispatch::Journey, uninitialized constants).
  module RailsCheck
    module_function

    # A warning for the boot output, or nil; +threads+ is the worker pool's maximum.
    def warning(threads)
      return nil unless threads > 1 && defined?(::Rails) && ::Rails.respond_to?(:application)

      app = ::Rails.application
      return nil if app.nil? || app.config.eager_load

      "nettyrack: warning: Rails runs on #{threads} threads with config.eager_load = false, so requests " \
        "race to load code lazily (NoMethodError, NameError); set config.eager_load = true (as " \
        "production does), or run with -t 1"
    end
  end
end
