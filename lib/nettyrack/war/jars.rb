# frozen_string_literal: true

require "rbconfig"
require_relative "archive"
require_relative "../errors"

module Nettyrack
  module War
    # The Java half of a WAR, from the JRuby and the nettyrack this command runs on:
    #
    #   WEB-INF/lib/jruby-VERSION.jar         this JRuby's lib/jruby.jar
    #   WEB-INF/lib/jruby-stdlib-VERSION.jar  its lib/ruby (stdlib, default and bundled gems) as
    #                                         META-INF/jruby.home, written here, with the
    #                                         .jrubydir listings JRuby reads from a jar
    #   WEB-INF/lib/*.jar                     nettyrack.jar and its dependencies (Netty, ...)
    #   org/nettyrack/war/*.class             the executable WAR's launcher, at the root
    class Jars
      LAUNCHER_PACKAGE = "org/nettyrack/war/"
      MAIN_CLASS = "org.nettyrack.war.WarMain"

      def initialize(jruby_home: RbConfig::CONFIG["prefix"], nettyrack_jars: File.expand_path("../jars", __dir__))
        @jruby_home = jruby_home
        @nettyrack_jars = nettyrack_jars
      end

      # {entry name => source} for WEB-INF/lib and the launcher; scratch: a directory for the
      # stdlib jar, which must outlive the WAR's writing.
      def entries(scratch)
        lib = { "WEB-INF/lib/jruby-#{JRUBY_VERSION}.jar" => jruby_jar,
                "WEB-INF/lib/jruby-stdlib-#{JRUBY_VERSION}.jar" => stdlib_jar(scratch) }
        nettyrack_jar_files.each { |jar| lib["WEB-INF/lib/#{File.basename(jar)}"] = jar }
        lib.merge(launcher_classes)
      end

      def jruby_jar
        path = File.join(@jruby_home, "lib", "jruby.jar")
        raise BootError, "no jruby.jar in #{File.dirname(path)}: run nettyrack war on a JRuby installation" unless File.file?(path)

        path
      end

      def nettyrack_jar_files
        jars = Dir[File.join(@nettyrack_jars, "*.jar")].sort
        unless jars.any? { |jar| File.basename(jar) == "nettyrack.jar" }
          raise BootError, "nettyrack.jar is missing from #{@nettyrack_jars}; build it with: rake jar"
        end

        jars
      end

      private

      def stdlib_jar(scratch)
        ruby = File.join(@jruby_home, "lib", "ruby")
        raise BootError, "no Ruby standard library in #{ruby}" unless File.directory?(ruby)

        entries = {}
        add_tree(entries, ruby, "META-INF/jruby.home/lib/ruby")
        entries["META-INF/jruby.home/.jrubydir"] = Archive::Bytes.new(".\nlib\n")
        entries["META-INF/jruby.home/lib/.jrubydir"] = Archive::Bytes.new(".\n..\nruby\n")
        path = File.join(scratch, "jruby-stdlib-#{JRUBY_VERSION}.jar")
        Archive.write(path, entries)
        path
      end

      # Files under dir as entries under prefix, with a .jrubydir in each directory.
      def add_tree(entries, dir, prefix)
        children = Dir.children(dir).sort
        entries["#{prefix}/.jrubydir"] = Archive::Bytes.new([".", "..", *children].join("\n") + "\n")
        children.each do |name|
          path = File.join(dir, name)
          if File.directory?(path)
            add_tree(entries, path, "#{prefix}/#{name}")
          elsif File.file?(path)
            entries["#{prefix}/#{name}"] = path
          end
        end
      end

      def launcher_classes
        zip = java.util.zip.ZipFile.new(File.join(@nettyrack_jars, "nettyrack.jar"))
        classes = zip.entries.select { |entry| entry.name.start_with?(LAUNCHER_PACKAGE) && entry.name.end_with?(".class") }
        raise BootError, "nettyrack.jar has no #{LAUNCHER_PACKAGE} classes; rebuild it with: rake jar" if classes.empty?

        classes.to_h do |entry|
          [entry.name, Archive::Bytes.new(String.from_java_bytes(zip.get_input_stream(entry).read_all_bytes))]
        end
      ensure
        zip&.close
      end
    end
  end
end
