# frozen_string_literal: true

require "fileutils"
require "socket"
require "tmpdir"

# bin/nettyrack as a person runs it: a child process, its exit status, and what it prints.
# Each JRuby child costs a JVM boot (about 2 s), so there are few; every wait has a deadline.
RSpec.describe "bin/nettyrack" do
  let(:root) { File.expand_path("../..", __dir__) }

  def nettyrack(*args, **options)
    child = NettyrackProcess.new(*args, chdir: root, **options)
    yield child
  ensure
    child&.kill
  end

  # Runs to the end; returns [exit status, stdout, stderr less the JVM's own warnings].
  def finish(*args, **options)
    nettyrack(*args, **options) do |child|
      status = child.wait
      [status.exitstatus, child.stdout, child.stderr]
    end
  end

  it "boots on port 0, says where in one line, serves, and exits 0 on SIGTERM" do
    nettyrack("-b", "tcp://127.0.0.1:0", "-t", "2:4", "spec/fixtures/hello.ru") do |child|
      boot = child.stdout_match(%r{^nettyrack (\S+) \(JRuby \S+, Java \d+, 4 threads\) listening on http://127\.0\.0\.1:(\d+)\n})
      expect(boot[1]).to eq(Nettyrack::VERSION)
      expect(fetch("http://127.0.0.1:#{boot[2]}/from-outside").body).to eq("hello /from-outside")
      child.signal("TERM")
      expect(child.wait.exitstatus).to eq(0)
      expect(child.stdout).to end_with("nettyrack: shutting down (SIGTERM)\n")
      expect(child.stdout.lines.size).to eq(2)
      expect(child.stderr).to eq("")
    end
  end

  it "starts its JVM once more with nettyrack's JVM settings, keeping the user's, same pid" do
    env = { "NETTYRACK_JVM" => nil, "JAVA_OPTS" => "-Xmx200m" }
    nettyrack("-b", "tcp://127.0.0.1:0", "spec/fixtures/jvm_args.ru", env: env) do |child|
      port = child.stdout_match(/listening on .*:(\d+)/)[1]
      args = fetch("http://127.0.0.1:#{port}/").body.lines.map(&:chomp)
      expect(args.grep(/\A-Xmx/)).to eq(["-Xmx200m"])
      # HotSpot suspends threads (JFR's sampler) with another signal than the hot restart's SIGUSR2
      expect(File.read("/proc/#{child.pid}/environ").split("\0")).to include("_JAVA_SR_SIGNUM=30")
      if java.lang.Runtime.version.feature >= 25
        expect(args).to include("-XX:+UseCompactObjectHeaders", "--enable-native-access=ALL-UNNAMED")
      end
      child.signal("TERM")
      expect(child.wait.exitstatus).to eq(0)
      expect(child.raw_stderr).to eq("")
    end
  end

  it "runs the worker threads at --worker-nice, the event loops as started" do
    nettyrack("-b", "tcp://127.0.0.1:0", "-t", "2:2", "--worker-nice", "3", "spec/fixtures/thread_nice.ru") do |child|
      port = child.stdout_match(/listening on .*:(\d+)/)[1]
      threads = fetch("http://127.0.0.1:#{port}/").body.lines.map(&:split)
      expect(threads.select { |name, _| name.start_with?("nettyrack-work") }.map(&:last)).to eq(%w[3 3])
      expect(threads.select { |name, _| name.start_with?("nettyrack-io") }.map(&:last).uniq).to eq(["0"])
      child.signal("TERM")
      expect(child.wait.exitstatus).to eq(0)
      expect(child.stderr).to eq("")
    end
  end

  it "names at boot each Rails setting that breaks or slows parallel threads, one line each" do
    nettyrack("-b", "tcp://127.0.0.1:0", "-t", "4", "-e", "production", "spec/fixtures/rails_misconfigured.ru") do |child|
      port = child.stdout_match(/listening on .*:(\d+)/, timeout: 120)[1]
      expect(fetch("http://127.0.0.1:#{port}/", timeout: 60).body).to eq("misconfigured")
      child.signal("TERM")
      expect(child.wait.exitstatus).to eq(0)
      expect(child.stderr.lines.grep(/warning/).map { |line| line[/\Anettyrack: warning: Rails[^,(]*/] }).to eq(
        ["nettyrack: warning: Rails runs on 4 threads with config.eager_load = false",
         "nettyrack: warning: Rails reloads code in production ",
         "nettyrack: warning: Rails' middleware has Rack::Lock ",
         "nettyrack: warning: Rails logs at debug level in production "]
      )
    end
  end

  it "warns at boot when a database pool holds fewer connections than the worker threads" do
    nettyrack("-b", "tcp://127.0.0.1:0", "-t", "4", "spec/fixtures/small_pool.ru") do |child|
      port = child.stdout_match(/listening on .*:(\d+)/)[1]
      expect(fetch("http://127.0.0.1:#{port}/").body).to eq("pooled")
      child.signal("TERM")
      expect(child.wait.exitstatus).to eq(0)
      expect(child.stderr).to eq("nettyrack: warning: Sequel's pool (mock) holds at most 2 connections for 4 worker " \
                                 "threads, so at most 2 requests query at once and the others wait for a connection; " \
                                 "pass max_connections: 4 to Sequel.connect, or run with -t 2\n")
    end
  end

  it "listens on $PORT over the config file's bind, and exits 0 on SIGINT" do
    Dir.mktmpdir("nettyrack-boot") do |dir|
      File.write(File.join(dir, "nettyrack.rb"), %(bind "tcp://127.0.0.1:1"\n))
      nettyrack("-C", File.join(dir, "nettyrack.rb"), "spec/fixtures/hello.ru", env: { "PORT" => "0" }) do |child|
        port = child.stdout_match(%r{listening on http://0\.0\.0\.0:(\d+)\n})[1]
        expect(fetch("http://127.0.0.1:#{port}/").code).to eq("200")
        child.signal("INT")
        expect([child.wait.exitstatus, child.stdout.lines.last]).to eq([0, "nettyrack: shutting down (SIGINT)\n"])
      end
    end
  end

  describe "failing to boot: one sentence on stderr, no trace, status 1" do
    it "without a config.ru" do
      Dir.mktmpdir("nettyrack-empty") do |dir|
        real = File.realpath(dir)
        expect(finish("--dir", real))
          .to eq([1, "", "nettyrack: no config.ru in #{real}; pass one: nettyrack path/to/config.ru\n"])
      end
    end

    it "for a syntax error in config.ru" do
      status, out, err = finish("spec/fixtures/syntax_error.ru")
      expect([status, out]).to eq([1, ""])
      expect(err).to match(%r{\Anettyrack: syntax error in spec/fixtures/syntax_error\.ru:\d+: [^\n]+\n\z})
    end

    it "for a port in use" do
      taken = TCPServer.new("127.0.0.1", 0)
      port = taken.addr[1]
      expect(finish("-b", "tcp://127.0.0.1:#{port}", "spec/fixtures/hello.ru"))
        .to eq([1, "", "nettyrack: 127.0.0.1:#{port} is already in use\n"])
    ensure
      taken&.close
    end

    it "for a bad option value" do
      expect(finish("--max-body-size", "10x"))
        .to eq([1, "", %(nettyrack: invalid --max-body-size: "10x" is not a size (use bytes, or 64k, 10m, 1g)\n)])
    end

    it "on a Ruby that is not JRuby" do
      cruby = %w[/usr/bin/ruby /usr/local/bin/ruby].find { |path| File.executable?(path) }
      skip "no CRuby on this machine" unless cruby
      env = NettyrackProcess::FOREIGN_RUBY_ENV
      version = IO.popen(env, [cruby, "-e", "print RUBY_VERSION"], &:read)

      expect(finish(ruby: cruby, env: env))
        .to eq([1, "", "nettyrack needs JRuby 9.4 or newer; this is ruby #{version} (try: jruby -S nettyrack)\n"])
    end
  end
end
