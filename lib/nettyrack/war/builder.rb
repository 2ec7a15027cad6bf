# frozen_string_literal: true

require "fileutils"
require "tmpdir"
require_relative "app_files"
require_relative "archive"
require_relative "gem_set"
require_relative "jars"
require_relative "jetty_web_xml"
require_relative "nettyrack_gem"
require_relative "web_xml"
require_relative "../errors"
require_relative "../version"

module Nettyrack
  module War
    # Settings → one WAR file, in Warbler's layout:
    #
    #   /                      public/ (AppFiles), the launcher classes (Jars)
    #   META-INF/MANIFEST.MF   Main-Class: the launcher, so `java -jar app.war` serves the app
    #   META-INF/nettyrack/war.properties   what the launcher runs, the default RACK_ENV and
    #                                       BUNDLE_WITHOUT
    #   WEB-INF/               config.ru and the app (AppFiles), web.xml (config/web.xml, else
    #                          WebXml's), jetty-web.xml (config/jetty-web.xml, else
    #                          JettyWebXml's), lib/ (Jars + Settings#java_libs), gems/ (GemSet +
    #                          NettyrackGem), Gemfile.lock (GemSet's, when the app has none)
    #
    # It is written next to the output and renamed into place, so a failed build leaves no
    # half-written WAR.
    class Builder
      GEM_PATH = "WEB-INF/gems"
      PROPERTIES = "META-INF/nettyrack/war.properties"
      # What JRuby's launcher opens to itself (bin/.jruby.module_opts); a manifest opens them
      # to the unnamed modules, where the WAR's jars live. Native access is for Netty's epoll.
      MANIFEST = { "Main-Class" => Jars::MAIN_CLASS, "Created-By" => "nettyrack #{VERSION}",
                   "Enable-Native-Access" => "ALL-UNNAMED",
                   "Add-Opens" => "java.base/java.io java.base/java.nio.channels java.base/sun.nio.ch " \
                                  "java.management/sun.management" }.freeze

      def initialize(settings, output, jars: Jars.new)
        @settings = settings
        @output = output
        @jars = jars
        @gem = NettyrackGem.new
      end

      # Writes the WAR; returns the number of entries.
      def build
        writable!
        entries = AppFiles.new(@settings, skip: [@output]).entries
        entries["WEB-INF/web.xml"] = web_xml
        entries["WEB-INF/jetty-web.xml"] = own("jetty-web.xml") || Archive::Bytes.new(JettyWebXml.render)
        entries.merge!(gem_entries, @gem.entries(GEM_PATH), java_libs)
        entries[PROPERTIES] = Archive::Bytes.new(properties)
        Dir.mktmpdir("nettyrack-war") do |scratch|
          entries.merge!(@jars.entries(scratch))
          write(entries)
        end
      end

      private

      def write(entries)
        partial = "#{@output}.partial-#{Process.pid}"
        count = Archive.write(partial, entries, manifest: MANIFEST)
        File.rename(partial, @output)
        count
      ensure
        FileUtils.rm_f(partial) if partial
      end

      def writable!
        dir = File.dirname(@output)
        raise ConfigError, "cannot write #{@output}: #{dir} is not a directory" unless File.directory?(dir)
        raise ConfigError, "cannot write #{@output}: #{@output} is a directory" if File.directory?(@output)
        raise ConfigError, "cannot write #{@output}: permission denied" unless File.writable?(dir)
      end

      def web_xml
        own("web.xml") || Archive::Bytes.new(WebXml.render(@settings.webxml.context_params))
      end

      # The app's own config/NAME, when it has one.
      def own(name)
        path = File.join(@settings.app_dir, "config", name)
        path if File.file?(path)
      end

      def gem_entries
        set = GemSet.new(@settings)
        entries = set.specs.each_with_object({}) do |spec, found|
          found["#{GEM_PATH}/specifications/#{spec.full_name}.gemspec"] = Archive::Bytes.new(spec.to_ruby)
          gem_files(spec).each { |relative, path| found["#{GEM_PATH}/gems/#{spec.full_name}/#{relative}"] = path }
        end
        entries["WEB-INF/Gemfile.lock"] = Archive::Bytes.new(set.lockfile) if set.lockfile
        entries
      end

      # {relative path => absolute path} of the files of an installed gem, less gem_excludes.
      def gem_files(spec, dir = spec.full_gem_path, prefix = nil)
        return {} unless File.directory?(dir)

        Dir.children(dir).sort.each_with_object({}) do |name, files|
          relative = prefix ? "#{prefix}/#{name}" : name
          path = File.join(dir, name)
          next if Array(@settings.gem_excludes).any? { |pattern| pattern.match?(relative) }

          if File.directory?(path)
            files.merge!(gem_files(spec, path, relative))
          elsif File.file?(path)
            files[relative] = path
          end
        end
      end

      def java_libs
        Array(@settings.java_libs).flat_map { |pattern| Dir.glob(pattern.to_s, base: @settings.app_dir) }
                                  .to_h { |jar| ["WEB-INF/lib/#{File.basename(jar)}", File.join(@settings.app_dir, jar)] }
      end

      def properties
        env = @settings.webxml.context_params.fetch("rack.env", "production")
        without = Array(@settings.bundle_without).join(":")
        "# Read by org.nettyrack.war.WarMain (java -jar)\nlauncher=#{@gem.launcher}\nrack.env=#{env}\n" \
          "bundle.without=#{without}\n"
      end
    end
  end
end
