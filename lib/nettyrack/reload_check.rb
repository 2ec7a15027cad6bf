# frozen_string_literal: true

require "digest"
require_relative "dsl"

module Nettyrack
  # What a reload inside this JVM cannot take in, noted at boot and compared at each reload:
  # the gems (Gemfile and its lock, Bundler's and the app directory's: the JVM's loaded gems
  # and their jars stay), the JVM's and JRuby's settings files in the app directory (read by
  # JRuby's launcher when the JVM starts: .jruby.java_opts, .jrubyrc), and the
  # config file's settings other than the app itself (threads, binds, limits: the server was
  # built with them). Each change it finds is named; a hot restart is the way to apply them.
  #
  #   check = ReloadCheck.new(config_file: "config/nettyrack.rb", layer: DSL.load("config/nettyrack.rb"), env: ENV)
  #   check.changes  # => [] or ["Gemfile.lock changed", "config/nettyrack.rb changed threads, port"]
  #
  # Flow: Lifetime (at boot) → here ← AppReload (before each reload).
  class ReloadCheck
    # Settings of the config file that a new runtime reads again, so they may change.
    RELOADED = %i[app lowlevel_error_handler hooks not_applied].freeze
    # Read when the JVM starts, from the directory it starts in.
    JVM_FILES = %w[.jruby.java_opts .jrubyrc].freeze

    attr_reader :config_file

    # layer: what the launcher read from config_file at boot ({} without one).
    def initialize(config_file:, layer:, env:)
      @config_file = config_file
      # The Gemfile Bundler reads, and the app's own (a deploy changes that one even where
      # BUNDLE_GEMFILE points elsewhere).
      gemfiles = [env["BUNDLE_GEMFILE"], File.expand_path("Gemfile")].compact.map { |path| File.expand_path(path) }.uniq
      @files = [*gemfiles.flat_map { |path| [path, "#{path}.lock"] }, *JVM_FILES.map { |name| File.expand_path(name) }]
      @digests = digests
      @settings = settings_of(layer)
    end

    # The changes since boot that a reload cannot apply, in words; [] when there are none.
    def changes
      found = []
      digests.each { |name, digest| found << "#{name} changed" unless @digests[name] == digest }
      now = settings
      changed = (@settings.keys | now.keys).reject { |key| @settings[key] == now[key] }
      found << "#{@config_file} changed #{changed.join(', ')}" unless changed.empty?
      found
    rescue ConfigError => e
      found << e.message
    end

    private

    def digests
      @files.to_h { |path| [path.delete_prefix("#{Dir.pwd}/"), File.file?(path) ? Digest::SHA256.file(path).hexdigest : nil] }
    end

    def settings
      @config_file ? settings_of(DSL.load(@config_file)) : {}
    end

    def settings_of(layer)
      layer.reject { |key, _| RELOADED.include?(key) }
    end
  end
end
