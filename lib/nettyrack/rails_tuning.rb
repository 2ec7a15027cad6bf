# frozen_string_literal: true

module Nettyrack
  # Slow paths that Rails takes on every request and JRuby makes expensive, avoided without
  # changing what the app sees. Applied once the app has loaded (Server#start, HostedApp.boot);
  # NETTYRACK_RAILS_TUNING=off leaves Rails as it is. README "Rails and the JVM" has the numbers.
  #
  # ActionDispatch::Static (on whenever config.public_file_server.enabled is, which Heroku's
  # buildpack turns on with RAILS_SERVE_STATIC_FILES) looks for a public file before every
  # request reaches the router: for GET / it tries index, index.html and their .br/.gz siblings,
  # each with FileHandler#file_readable?, which calls File.stat and rescues the SystemCallError
  # a missing file raises. A raise costs CRuby little; JRuby builds a Java exception and its
  # stack trace each time. In a profile of the Rails example under load that was 12 % of the
  # worker threads' time, and calling the app in a loop took 2-2.5 times as long per request
  # with it. FileStatWithoutRaise answers the same question ("a regular file the process may
  # read?") with File.file? and File.readable?, which fail by returning false.
  module RailsTuning
    # Prepended to ActionDispatch::FileHandler.
    module FileStatWithoutRaise
      private

      def file_readable?(path)
        full = File.join(@root, path.b)
        File.file?(full) && File.readable?(full)
      end
    end

    module_function

    # The object to call for +app+: a Rails application's instance where +app+ is its class
    # (`run MyApp` in a one-file app's config.ru). The class answers `call` through
    # Rails::Railtie.method_missing (respond_to? on the instance, then public_send), which in a
    # profile of the Rails example under load was 11.5 % of the worker threads' samples, before
    # any of Rails' own code ran; the instance's `call` is what it ends in.
    def app(app, env = ENV)
      return app if env["NETTYRACK_RAILS_TUNING"].to_s.downcase == "off"
      return app unless defined?(::Rails::Application) && app.is_a?(Class) && app < ::Rails::Application

      app.instance
    end

    # Applies what fits the loaded code; returns the names of what it applied (for tests).
    def apply(env = ENV)
      return [] if env["NETTYRACK_RAILS_TUNING"].to_s.downcase == "off"

      applied = []
      handler = defined?(::ActionDispatch::FileHandler) && ::ActionDispatch::FileHandler
      if handler && handler.private_method_defined?(:file_readable?) && !(handler < FileStatWithoutRaise)
        handler.prepend(FileStatWithoutRaise)
        applied << :file_stat_without_raise
      end
      applied
    end
  end
end
