# frozen_string_literal: true

require_relative "errors"

module Nettyrack
  # Rackup file → Rack app, through Rack::Builder.parse_file (Rack 2 returns [app, options],
  # Rack 3 the app). Loads Rack on first use. Every way this can fail becomes a BootError of
  # one line: no such file, Rack missing, a syntax error, an exception while loading.
  module AppLoader
    module_function

    def load(path)
      raise BootError, missing(path) unless File.file?(path)

      require_rack
      result = Rack::Builder.parse_file(path)
      result.is_a?(Array) ? result.first : result
    rescue SyntaxError => e
      raise BootError, Nettyrack.describe_syntax_error(e)
    rescue BootError
      raise
    rescue ScriptError, StandardError => e
      raise BootError, "error loading #{path}: #{e.message.lines.first&.strip} (#{e.class}) at #{origin(e)}"
    end

    def missing(path)
      return "no such file: #{path} (in #{Dir.pwd})" unless path == "config.ru"

      "no config.ru in #{Dir.pwd}; pass one: nettyrack path/to/config.ru"
    end

    def require_rack
      require "rack"
    rescue LoadError
      raise BootError, "loading a rackup file needs the rack gem; add it to your Gemfile or gem install rack"
    end

    # Where +error+ was raised: the first backtrace line, relative to the current directory.
    def origin(error)
      frame = error.backtrace_locations&.find { |loc| !loc.path.end_with?(".java") } ||
              error.backtrace_locations&.first
      return "(unknown)" unless frame

      path = frame.absolute_path || frame.path
      path = path.delete_prefix("#{Dir.pwd}/")
      "#{path}:#{frame.lineno}"
    end
  end
end
