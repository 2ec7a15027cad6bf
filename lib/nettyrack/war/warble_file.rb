# frozen_string_literal: true

require_relative "../errors"

module Nettyrack
  module War
    # Reads a config/warble.rb into Settings. The file is evaluated as Warbler would, but
    # against a Warbler::Config of our own (Warbler is not needed, nor loaded): its
    # `Warbler::Config.new do |config| ... end` block gets the Settings, and FileList[...]
    # gives back its patterns, which Settings resolves against the app directory. Calls on
    # Warbler itself (Warbler.framework_detection = false) are ignored with a warning.
    module WarbleFile
      PATH = File.join("config", "warble.rb")

      # A FileList that keeps its patterns: Settings globs them in the app directory.
      class FileList < Array
        def self.[](*patterns)
          new(patterns.flatten)
        end

        def include(*patterns)
          concat(patterns.flatten)
        end
        alias add include

        def exclude(*)
          self
        end
      end

      module_function

      # Settings for app_dir, with config/warble.rb applied when there is one.
      def load(settings)
        path = File.join(settings.app_dir, PATH)
        return settings unless File.file?(path)

        sandbox(settings).module_eval(File.read(path), path, 1)
        settings
      rescue ScriptError, StandardError => e
        raise ConfigError, "#{path}: #{describe(e, path)}"
      end

      def sandbox(settings)
        config = Class.new do
          define_singleton_method(:new) do |*, &block|
            block&.call(settings)
            settings
          end
        end
        warbler = Module.new
        warbler.const_set(:Config, config)
        warbler.define_singleton_method(:method_missing) do |name, *|
          settings.warnings << "Warbler.#{name.to_s.chomp('=')} is not supported by nettyrack war; ignored"
          nil
        end
        warbler.define_singleton_method(:respond_to_missing?) { |*| true }
        Module.new.tap do |box|
          box.const_set(:Warbler, warbler)
          box.const_set(:FileList, FileList)
        end
      end

      def describe(error, path)
        return Nettyrack.describe_syntax_error(error) if error.is_a?(SyntaxError)

        line = error.backtrace_locations&.find { |location| location.path == path }&.lineno
        where = line ? "line #{line}: " : ""
        "#{where}#{error.message.lines.first&.strip} (#{error.class})"
      end
    end
  end
end
