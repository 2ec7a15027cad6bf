# frozen_string_literal: true

require "rbconfig"
require_relative "deadline"

# `bin/nettyrack ARGS` as a child process (JRuby by default; or another command, such as
# `java -jar app.war`), with stdout and stderr on pipes.
# Every wait has a deadline; #kill (call it in an ensure) ends a child a spec gave up on.
#
#   child = NettyrackProcess.new("-p", "0", "spec/fixtures/hello.ru")
#   port = child.stdout_match(/listening on .*:(\d+)/)[1]
#   child.signal("TERM")
#   child.wait.exitstatus  # => 0
class NettyrackProcess
  BIN = File.expand_path("../../bin/nettyrack", __dir__)
  # Settings the parent's environment must not leak into a child.
  # NETTYRACK_JVM=off: one JVM start per child instead of two (the JVM settings bin/nettyrack
  # adds are checked by the boot spec that turns it back on).
  CLEAN_ENV = {
    "PORT" => nil, "RACK_ENV" => nil, "RAILS_MAX_THREADS" => nil, "RAILS_MIN_THREADS" => nil,
    "JRUBY_OPTS" => "--dev", "NETTYRACK_JVM" => "off", "NETTYRACK_JVM_TUNED" => nil, "JAVA_OPTS" => nil
  }.freeze
  # For a child on another Ruby (CRuby): none of this JRuby's gems or Bundler.
  FOREIGN_RUBY_ENV = %w[RUBYOPT RUBYLIB GEM_HOME GEM_PATH BUNDLE_GEMFILE BUNDLE_BIN_PATH BUNDLER_SETUP
                        BUNDLER_VERSION JRUBY_OPTS].to_h { |name| [name, nil] }.freeze
  # What the JVM itself may print on stderr: Java 24+ warns about Netty's native transport in
  # a block of WARNING lines and a blank one.
  JVM_NOISE = /\A(?:WARNING: |NOTE: Picked up |\s*\z)/

  attr_reader :stdout, :pid

  # command: what runs instead of `ruby bin/nettyrack` (e.g. ["java", "-jar", "app.war"]).
  def initialize(*args, ruby: RbConfig.ruby, command: [ruby, BIN], chdir: Dir.pwd, env: {})
    out_reader, out_writer = IO.pipe
    err_reader, err_writer = IO.pipe
    @pid = Process.spawn(CLEAN_ENV.merge(env), *command, *args,
                         chdir: chdir, in: File::NULL, out: out_writer, err: err_writer)
    out_writer.close
    err_writer.close
    @out = out_reader
    @err = err_reader
    @stdout = +""
    @stderr = +""
    @exit = Process.detach(@pid)
  end

  # The MatchData of +pattern+ on stdout, once it appears; fails after +timeout+ seconds.
  def stdout_match(pattern, timeout: 60)
    match = Deadline.read_until(@out, @stdout, pattern, timeout)
    return match if match

    Deadline.read_some(@err, @stderr, Deadline.now + 1)
    raise "no #{pattern.inspect} on stdout within #{timeout} s\nstdout: #{@stdout}\nstderr: #{@stderr}"
  end

  # The MatchData of +pattern+ on stderr, once it appears; fails after +timeout+ seconds.
  def stderr_match(pattern, timeout: 60)
    match = Deadline.read_until(@err, @stderr, pattern, timeout)
    return match if match

    raise "no #{pattern.inspect} on stderr within #{timeout} s\nstdout: #{@stdout}\nstderr: #{@stderr}"
  end

  def signal(name)
    Process.kill(name, @pid)
  end

  # The Process::Status once the child exits (its output then read to the end).
  def wait(timeout: 60)
    raise "nettyrack did not exit within #{timeout} s\nstdout: #{@stdout}" unless @exit.join(timeout)

    limit = Deadline.now + 5
    nil while Deadline.read_some(@out, @stdout, limit)
    nil while Deadline.read_some(@err, @stderr, limit)
    @exit.value
  end

  # stderr (complete after #wait), without the JVM's own warnings.
  def stderr
    @stderr.lines.grep_v(JVM_NOISE).join
  end

  # stderr as written, the JVM's warnings too.
  def raw_stderr
    @stderr.dup
  end

  def kill
    Process.kill("KILL", @pid) if @exit.alive?
  rescue Errno::ESRCH
    nil
  ensure
    @out.close unless @out.closed?
    @err.close unless @err.closed?
  end

  # Whether +pid+ (a hot restart's new process, which is not our child) still runs.
  def self.alive?(pid)
    File.exist?("/proc/#{pid}") && File.read("/proc/#{pid}/stat").split[2] != "Z"
  rescue SystemCallError
    false
  end

  # Kills what is left of +pids+ (processes a child started: a hot restart's new ones).
  def self.kill_all(pids)
    pids.each do |pid|
      Process.kill("KILL", pid)
    rescue Errno::ESRCH
      nil
    end
  end
end
