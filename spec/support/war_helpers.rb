# frozen_string_literal: true

require "java"
require_relative "nettyrack_process"

# `nettyrack war` and `java -jar app.war` as a person runs them, for the WAR specs: each a
# child process (NettyrackProcess), without the Bundler environment `bundle exec rspec` set.
module WarHelpers
  ROOT = File.expand_path("../..", __dir__)
  # What `bundle exec rspec` exports, which a person building a WAR does not have.
  OUTSIDE_BUNDLER = %w[RUBYOPT RUBYLIB BUNDLE_GEMFILE BUNDLE_BIN_PATH BUNDLER_SETUP BUNDLER_VERSION]
                    .to_h { |name| [name, nil] }.freeze
  # Debian's Java 17: older than what a JRuby 10 WAR needs (21).
  JAVA17 = "/usr/lib/jvm/java-17-openjdk-amd64/bin/java"
  # Quick JVM start for the WAR's JRuby, as JRUBY_OPTS=--dev gives bin/nettyrack.
  QUICK_JVM = %w[-XX:+TieredCompilation -XX:TieredStopAtLevel=1 -Djruby.compile.mode=OFF].freeze

  # Runs `nettyrack war ARGS` to the end: [exit status, stdout, stderr].
  def nettyrack_war(*args, timeout: 300)
    child = NettyrackProcess.new("war", *args, chdir: ROOT, env: OUTSIDE_BUNDLER)
    status = child.wait(timeout: timeout)
    [status.exitstatus, child.stdout, child.stderr]
  ensure
    child&.kill
  end

  # `java -jar war ARGS` on this JVM's java, unpacking into tmpdir; yields the child.
  def java_jar(war, *args, tmpdir:, env: {})
    java = File.join(ENV_JAVA["java.home"], "bin", "java")
    command = [java, *QUICK_JVM, "-Djava.io.tmpdir=#{tmpdir}", "-jar", war]
    child = NettyrackProcess.new(*args, command: command, chdir: tmpdir,
                                        env: OUTSIDE_BUNDLER.merge("GEM_PATH" => nil, "GEM_HOME" => nil,
                                                                   "JRUBY_OPTS" => nil).merge(env))
    yield child
  ensure
    child&.kill
  end

  # JAVA17, for showing what a JRuby 10 WAR says on a Java too old for it; skips the example
  # when this suite's JRuby is not 10 or that Java is not installed.
  def java17_or_skip
    skip "needs JRuby 10 (Java 21+) and a Java 17 at #{JAVA17}" unless JRUBY_VERSION.start_with?("10.") && File.executable?(JAVA17)
    JAVA17
  end

  # The port in the boot line of a child started with -b tcp://127.0.0.1:0.
  def war_port(child)
    child.stdout_match(%r{listening on http://127\.0\.0\.1:(\d+)}, timeout: 240)[1]
  end

  def war_entries(war)
    zip = java.util.zip.ZipFile.new(war)
    zip.entries.map(&:name)
  ensure
    zip&.close
  end

  def war_read(war, name)
    zip = java.util.zip.ZipFile.new(war)
    entry = zip.get_entry(name) or raise "no #{name} in #{war}"
    String.from_java_bytes(zip.get_input_stream(entry).read_all_bytes).force_encoding("UTF-8")
  ensure
    zip&.close
  end

  # Writes {relative path => content} under dir.
  def write_files(dir, files)
    files.each do |path, content|
      FileUtils.mkdir_p(File.dirname(File.join(dir, path)))
      File.write(File.join(dir, path), content)
    end
  end
end
