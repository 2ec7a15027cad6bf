# frozen_string_literal: true

require "rubygems"
require_relative "../errors"

module Nettyrack
  module War
    # The gems a WAR carries in WEB-INF/gems, as installed Gem::Specifications: those the app's
    # Gemfile resolves to (its Gemfile.lock if any, else resolved from the installed gems,
    # never from the network), without the bundle_without groups, plus Settings#gems with
    # their runtime dependencies, plus Rack if nothing brought it (nettyrack needs it); and the
    # Gemfile.lock it resolved, for an app without one.
    #
    # Left out: nettyrack itself (the WAR has its own copy), default gems and the gems JRuby
    # ships (both are in the JRuby stdlib jar in WEB-INF/lib).
    class GemSet
      def initialize(settings, jruby_home: RbConfig::CONFIG["prefix"])
        @settings = settings
        @jruby_home = File.expand_path(jruby_home)
      end

      # The specs to package, by name (one version each).
      def specs
        found = {}
        bundled.each { |spec| found[spec.name] ||= spec }
        Array(@settings.gems).each { |name, version| add_installed(found, name, version || ">= 0") }
        add_installed(found, "rack", rack_requirement) unless found.key?("rack")
        found.values.reject { |spec| skip?(spec) }.sort_by(&:full_name)
      end

      # The Gemfile.lock of what #specs resolved, when the app has none: without it, Bundler in
      # the WAR would resolve the Gemfile again and want the gems of the groups left out.
      # Call after #specs.
      attr_reader :lockfile

      def gemfile
        File.join(@settings.app_dir, "Gemfile")
      end

      def bundler?
        @settings.bundler && File.file?(gemfile)
      end

      private

      def skip?(spec)
        spec.name == "nettyrack" || spec.default_gem? ||
          File.expand_path(spec.full_gem_path).start_with?(@jruby_home + File::SEPARATOR)
      end

      def bundled
        return [] unless bundler?

        with_bundler_env do
          require "bundler"
          Bundler.ui = Bundler::UI::Silent.new
          definition = Bundler::Definition.build(gemfile, "#{gemfile}.lock", nil)
          resolve_locally(definition)
          groups = definition.groups - Array(@settings.bundle_without).map(&:to_sym)
          specs = definition.specs_for(groups).reject { |spec| spec.name == "nettyrack" }.map { |spec| installed(spec) }
          @lockfile = definition.to_lock unless File.file?("#{gemfile}.lock")
          specs
        end
      rescue LoadError, StandardError => e
        raise ConfigError, "cannot resolve the gems of #{gemfile} from the gems installed here " \
                           "(#{e.message.lines.first&.strip}); run `bundle install` first"
      end

      # Bundler's own environment pointed at the app's Gemfile (relative paths in it are the
      # app's), whatever Gemfile this process was started with.
      def with_bundler_env
        saved = ENV.to_h.slice("BUNDLE_GEMFILE", "BUNDLE_FROZEN", "BUNDLE_DEPLOYMENT")
        ENV["BUNDLE_GEMFILE"] = gemfile
        Dir.chdir(@settings.app_dir) { yield }
      ensure
        %w[BUNDLE_GEMFILE BUNDLE_FROZEN BUNDLE_DEPLOYMENT].each { |key| ENV[key] = saved[key] }
      end

      def resolve_locally(definition)
        if definition.respond_to?(:resolve_only_locally!)
          definition.resolve_only_locally!
        else
          definition.resolve_with_cache!
        end
      end

      # Bundler's stub spec as the installed Gem::Specification it stands for.
      def installed(spec)
        spec.respond_to?(:to_spec) ? spec.to_spec : spec
      end

      def add_installed(found, name, requirement)
        return if found.key?(name.to_s)

        spec = Gem::Specification.find_all_by_name(name.to_s, *Array(requirement)).max_by(&:version)
        raise ConfigError, "gem #{name} (#{Array(requirement).join(', ')}) is not installed here" unless spec

        found[spec.name] = spec
        return unless @settings.gem_dependencies

        spec.runtime_dependencies.each { |dep| add_installed(found, dep.name, dep.requirement.as_list) }
      end

      def rack_requirement
        ours = Gem.loaded_specs["nettyrack"]&.dependencies&.find { |dep| dep.name == "rack" }
        ours ? ours.requirement.as_list : [">= 2.2", "< 4"]
      end
    end
  end
end
