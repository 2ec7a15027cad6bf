# frozen_string_literal: true

require_relative "errors"

module Nettyrack
  # Rackup file → Rack app, as Rack::Builder.parse_file makes it (Rack 2 returns [app, options],
  # Rack 3 the app), except that on JRuby a .ru file is parsed as a file, not eval'd
  # (see .compiled). Loads Rack on first use. Every way this can fail becomes a BootError of
  # one line: no such file, Rack missing, a syntax error, an exception while loading.
  #
  # Flow: Launcher / HostedApp → here (config.ru → the app) → Server.new(app) or the servlet door.
  module AppLoader
    module_function

    def load(path)
      raise BootError, missing(path) unless File.file?(path)

      require_rack
      result = compiled(path) || Rack::Builder.parse_file(path)
      result.is_a?(Array) ? result.first : result
    rescue SyntaxError => e
      raise BootError, Nettyrack.describe_syntax_error(e)
    rescue BootError
      raise
    rescue ScriptError, StandardError => e
      raise BootError, "error loading #{path}: #{e.message.lines.first&.strip} (#{e.class}) at #{origin(e)}"
    end

    # A .ru file run as Rack::Builder runs it (its text inside a Rack::Builder.new block: self
    # the builder, top-level constants, __FILE__ and line numbers its own, __END__ and a BOM
    # dropped), but loaded as a file, as Kernel#load loads one, rather than eval'd. JRuby
    # compiles the hot blocks of a loaded file (a lambda app, map and use blocks) to JVM
    # bytecode; those of eval'd code stay in its interpreter for good ("JIT failed; no full IR
    # or no call protocol found in block"), which cost a hello app a fifth of its worker time.
    # nil where Rack's own way is kept: not JRuby, not a .ru file, one whose first line
    # cannot follow the block's opening brace (=begin), and one that does not parse (Rack's
    # eval then reports the error, with the lines Rack users know).
    def compiled(path)
      return nil unless defined?(JRUBY_VERSION) && path.end_with?(".ru")

      script = File.binread(path).delete_prefix("\xEF\xBB\xBF".b).sub(/^__END__\n.*\z/mn, "")
      return nil if script.start_with?("=begin")

      require "jruby"
      code = "Thread.current[:__nettyrack_rackup] = ::Rack::Builder.new {#{script}\n}.to_app".b
      JRuby.runtime.loadFile(path, java.io.ByteArrayInputStream.new(code.to_java_bytes), false)
      Thread.current[:__nettyrack_rackup]
    rescue SyntaxError => e
      raise unless e.message.start_with?("#{path}:") # a file it required: already ran, not to run again

      nil
    ensure
      Thread.current[:__nettyrack_rackup] = nil
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
