# frozen_string_literal: true

require "optparse"
require_relative "errors"
require_relative "say"
require_relative "war/builder"
require_relative "war/settings"
require_relative "war/warble_file"

module Nettyrack
  # `nettyrack war [APP_DIR] [-o FILE.war]`, from ARGV to an exit status: Settings for the app
  # directory (default .) with its config/warble.rb applied (WarbleFile), then Builder writes
  # the WAR (default APP_DIR/<jar_name>.war). Warnings (unsupported warble.rb settings) and
  # errors are lines on stderr; errors give status 1.
  #
  # Flow: bin/nettyrack war → here → War::Settings, WarbleFile → War::Builder → the .war file.
  class WarCommand
    def initialize(argv, out: $stdout, err: $stderr)
      @argv = argv
      @out = out
      @err = err
      @output = nil
      @help = false
    end

    def run
      app_dir = parse
      return say(parser.help) if @help

      settings = War::WarbleFile.load(War::Settings.new(app_dir))
      settings.all_warnings.each { |line| @err.puts("nettyrack war: warning: #{line}") }
      output = @output ? File.expand_path(@output) : default_output(settings)
      count = War::Builder.new(settings, output).build
      say("nettyrack war: wrote #{output} (#{count} entries, #{(File.size(output) / 1_048_576.0).round(1)} MB)")
    rescue Error => e
      @err.puts("nettyrack war: #{e.message}")
      1
    end

    private

    # <jar_name>.war in autodeploy_dir (relative to the app, as under Warbler), else the app's.
    def default_output(settings)
      File.expand_path(File.join(settings.autodeploy_dir || ".", "#{settings.jar_name}.war"), settings.app_dir)
    end

    def parse
      rest = parser.parse(@argv)
      raise ConfigError, "one app directory at most, got: #{rest.join(' ')}" if rest.size > 1

      app_dir = File.expand_path(rest.first || ".")
      return app_dir if @help

      raise ConfigError, "#{app_dir} is not a directory" unless File.directory?(app_dir)
      unless File.file?(File.join(app_dir, "config.ru"))
        raise ConfigError, "no config.ru in #{app_dir}: nettyrack war packages the Rack app there"
      end

      app_dir
    rescue OptionParser::ParseError => e
      raise ConfigError, "#{e.message} (see nettyrack war --help)"
    end

    def parser
      @parser ||= OptionParser.new(nil, 30) do |opts|
        opts.banner = "Usage: nettyrack war [options] [APP_DIR]\n\n" \
                      "Packages the Rack app in APP_DIR (default .) as a WAR, in Warbler's layout, that\n" \
                      "runs in a servlet container or alone: java -jar app.war [nettyrack options]."
        opts.separator ""
        opts.on("-o", "--output FILE", "write the WAR to FILE (default APP_DIR/<jar_name>.war)") { |value| @output = value }
        opts.on("-h", "--help", "print this help and exit") { @help = true }
        opts.separator "\nReads config/warble.rb (dirs, includes, excludes, jar_name, webxml, gems, ...) as Warbler does."
      end
    end

    def say(text) = Say.line(@out, text)
  end
end
