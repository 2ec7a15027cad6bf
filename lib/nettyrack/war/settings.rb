# frozen_string_literal: true

require_relative "webxml_params"

module Nettyrack
  module War
    # What goes into one WAR, with Warbler's names and defaults so that a config/warble.rb
    # (WarbleFile) sets the same things it set under Warbler:
    #
    #   dirs            app directories copied under WEB-INF/ (those of TOP_DIRS that exist)
    #   includes        more files for WEB-INF/, glob patterns relative to the app ("*file")
    #   excludes        patterns (globs or regexps) of app files to leave out
    #   jar_name        the WAR's name without .war (the app directory's name)
    #   autodeploy_dir  where the WAR is written (the app directory)
    #   webxml          web.xml context params (rack.env production, public.root /)
    #   gems            more gems by name (or {name => version}), with their dependencies
    #                   (gem_dependencies: true)
    #   bundler         read the Gemfile (true); bundle_without: groups left out
    #   exclude_logs    leave out **/*.log (true); java_libs: more jars for WEB-INF/lib
    #   gem_excludes    regexps of paths inside gems to leave out
    #
    # Any other setting is accepted, ignored, and named in #warnings.
    class Settings
      TOP_DIRS = %w[app config db lib log script vendor tmp].freeze
      SUPPORTED = %i[dirs includes excludes jar_name autodeploy_dir webxml gems bundler bundle_without
                     gem_dependencies exclude_logs java_libs gem_excludes].freeze

      attr_accessor(*SUPPORTED)
      attr_reader :app_dir, :warnings

      def initialize(app_dir)
        @app_dir = app_dir
        @dirs = TOP_DIRS.select { |dir| File.directory?(File.join(app_dir, dir)) }
        @includes = ["*file"]
        @excludes = []
        @jar_name = File.basename(app_dir)
        @autodeploy_dir = nil
        @webxml = default_webxml
        @gems = []
        @gem_dependencies = true
        @bundler = true
        @bundle_without = %w[development test assets]
        @exclude_logs = true
        @java_libs = []
        @gem_excludes = []
        @warnings = []
      end

      # Warbler's old name for jar_name.
      def war_name=(name)
        self.jar_name = name
      end

      def war_name
        jar_name
      end

      # What to tell the user: unsupported settings, and dirs the app does not have (skipped).
      def all_warnings
        missing = Array(dirs).map(&:to_s).reject { |dir| File.directory?(File.join(app_dir, dir)) }
        warnings + missing.map { |dir| "config.dirs: #{dir} is not a directory of the app; skipped" }
      end

      # The excludes every build has: logs (unless exclude_logs is false) and tmp/cache.
      def all_excludes
        Array(excludes) + (exclude_logs ? ["**/*.log"] : []) + ["tmp/cache/**/*", "tmp/war/**/*"]
      end

      def respond_to_missing?(*)
        true
      end

      def method_missing(name, *_args)
        setting = name.to_s.chomp("=")
        unless @warnings.any? { |line| line.include?("config.#{setting} ") }
          @warnings << "config.#{setting} is not supported by nettyrack war; ignored"
        end
        Ignored.new
      end

      private

      def default_webxml
        webxml = WebxmlParams.new
        webxml.rack.env = "production"
        webxml.public.root = "/"
        webxml
      end

      # What an unsupported setting gives back: takes any call, chained, and does nothing.
      class Ignored < BasicObject
        def method_missing(*)
          self
        end

        def respond_to_missing?(*)
          true
        end
      end
    end
  end
end
