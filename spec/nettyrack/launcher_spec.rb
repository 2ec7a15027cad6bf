# frozen_string_literal: true

require "fileutils"
require "net/http"
require "socket"
require "stringio"
require "tmpdir"
require "nettyrack/launcher"

# For spec/fixtures/gated.ru: each request waits until the spec releases it.
class GatedApp
  STARTED = Queue.new
  RELEASE = Queue.new

  def call(_env)
    STARTED << true
    RELEASE.pop # the spec's ensure always pushes
    [200, { "content-type" => "text/plain" }, ["released"]]
  end
end

# The launcher in this process: ARGV in, exit status out, with stdout on a pipe so a spec can
# wait for the boot line. Stopping sends this process a real SIGTERM, which the launcher traps
# (its trap is in place before the boot line is printed).
RSpec.describe Nettyrack::Launcher do
  let(:err) { StringIO.new }
  let(:env) { {} }

  # Runs the launcher until it prints its boot line, yields the first URL, then sends SIGTERM.
  # Returns [exit status, stdout].
  def serve(*argv)
    reader, writer = IO.pipe
    launcher = Thread.new { described_class.new(argv, env: env, out: writer, err: err).run }
    out = +""
    booted = Deadline.read_until(reader, out, %r{listening on (http://\S+)}, 30)
    raise "no boot line within 30 s: #{out} #{err.string}" unless booted

    yield booted[1]
    Process.kill("TERM", Process.pid)
    status = Deadline.value(launcher, 30, "the launcher")
    writer.close
    Deadline.read_some(reader, out, Deadline.now + 5)
    [status, out]
  ensure
    writer&.close unless writer&.closed?
    reader&.close
  end

  # For runs that return at once; one that boots after all would wait for a stop for ever.
  def run_launcher(*argv)
    out = StringIO.new
    launcher = Thread.new { described_class.new(argv, env: env, out: out, err: err).run }
    status = Deadline.value(launcher, 30, "the launcher (expected to return without serving)")
    [status, out.string, err.string]
  end

  it "boots, prints one line saying where it listens, serves, and stops on SIGTERM with status 0" do
    status, out = serve("-b", "tcp://127.0.0.1:0", "-t", "1:3", "spec/fixtures/hello.ru") do |url|
      expect(fetch("#{url}/launched").body).to eq("hello /launched")
    end
    expect(status).to eq(0)
    boot = %r{nettyrack #{Nettyrack::VERSION} \(JRuby [\d.]+, Java \d+, 3 threads\) listening on http://127\.0\.0\.1:\d+}
    expect(out).to match(/\A#{boot}\nnettyrack: shutting down \(SIGTERM\)\n\z/)
    expect(err.string).to eq("")
  end

  it "merges its settings into one Configuration and builds the server's Java config once, for the server it hands them to" do
    allow(Nettyrack::Configuration).to receive(:new).and_call_original
    allow(Java::OrgNettyrackCoreConfig::ServerConfig).to receive(:builder).and_call_original # once per JavaConfig.build
    status, = serve("-b", "tcp://127.0.0.1:0", "-t", "1:2", "spec/fixtures/hello.ru") do |url|
      expect(fetch("#{url}/once").body).to eq("hello /once")
    end
    expect(status).to eq(0)
    expect(Nettyrack::Configuration).to have_received(:new).once
    expect(Java::OrgNettyrackCoreConfig::ServerConfig).to have_received(:builder).once
  end

  it "sets RACK_ENV, and shows exception details in development" do
    serve("-b", "tcp://127.0.0.1:0", "spec/fixtures/development.ru") do |url|
      expect(fetch("#{url}/boom").body).to include("secret detail")
    end
    expect(env["RACK_ENV"]).to eq("development")
    expect(err.string).to include("secret detail")
  end

  it "keeps exception details out of 500 bodies in other environments" do
    serve("-b", "tcp://127.0.0.1:0", "-e", "production", "spec/fixtures/development.ru") do |url|
      response = fetch("#{url}/boom")
      expect([response.code, response.body.include?("secret detail")]).to eq(["500", false])
    end
    expect(env["RACK_ENV"]).to eq("production")
  end

  it "reads a config file, writes the access log it names, and lets flags win over it" do
    Dir.mktmpdir("nettyrack-launcher") do |dir|
      File.write(File.join(dir, "nettyrack.rb"), <<~RUBY)
        port 1 # the flag below wins
        threads 2, 5
        access_log "#{dir}/access.log"
      RUBY
      status, out = serve("-C", File.join(dir, "nettyrack.rb"), "-b", "tcp://127.0.0.1:0", "spec/fixtures/hello.ru") do |url|
        fetch("#{url}/logged")
      end
      expect([status, out[/\d+ threads/]]).to eq([0, "5 threads"])
      expect(File.read(File.join(dir, "access.log"))).to include('"GET /logged HTTP/1.1" 200')
    end
  end

  it "stops gracefully on the control endpoint's POST /stop, as on SIGTERM" do
    reader, writer = IO.pipe
    launcher = Thread.new do
      described_class.new(%w[-b tcp://127.0.0.1:0 --control-url tcp://127.0.0.1:0 --no-control-token spec/fixtures/hello.ru],
                          env: env, out: writer, err: err).run
    end
    out = +""
    control = Deadline.read_until(reader, out, %r{control endpoint on tcp://(127\.0\.0\.1:\d+) \(no token}, 30)
    raise "no control line within 30 s: #{out} #{err.string}" unless control

    expect(post("http://#{control[1]}/stop", "").code).to eq("200")
    expect(Deadline.value(launcher, 30, "the launcher")).to eq(0)
    writer.close
    Deadline.read_some(reader, out, Deadline.now + 5)
    expect(out.lines.last).to eq("nettyrack: shutting down (control /stop)\n")
  ensure
    writer&.close unless writer&.closed?
    reader&.close
  end

  it "says so when requests outlive the shutdown timeout, and still exits 0" do
    request = nil
    status, out = serve("-b", "tcp://127.0.0.1:0", "--shutdown-timeout", "0", "spec/fixtures/gated.ru") do |url|
      request = Thread.new do
        fetch(url)
      rescue StandardError => e # the connection is cut at the shutdown timeout
        e
      end
      Deadline.value(Thread.new { GatedApp::STARTED.pop }, 10, "the request")
    end
    expect([status, out.lines.last]).to eq([0, "nettyrack: shutting down (SIGTERM)\n"])
    expect(err.string.lines).to include("nettyrack: requests still running after the shutdown timeout (0 s) were cut off\n")
  ensure
    GatedApp::RELEASE << true
    request&.join(10)
  end

  it "prints the version and the help" do
    expect(run_launcher("-v")).to eq([0, "nettyrack #{Nettyrack::VERSION}\n", ""])
    status, out, = run_launcher("--help")
    expect([status, out]).to match([0, a_string_starting_with("Usage: nettyrack [options] [config.ru]")])
  end

  it "hands `nettyrack war ...` to WarCommand" do
    status, out, = run_launcher("war", "--help")
    expect([status, out]).to match([0, a_string_starting_with("Usage: nettyrack war [options] [APP_DIR]")])
    expect(run_launcher("war", "a", "b")).to eq([1, "", "nettyrack war: one app directory at most, got: a b\n"])
  end

  describe "failing to boot: one line on stderr, status 1" do
    it "for a bad flag" do
      expect(run_launcher("--threads", "lots"))
        .to eq([1, "", %(nettyrack: invalid --threads: "lots" is not a thread count (use MIN:MAX or MAX)\n)])
    end

    it "for a bad $PORT" do
      env["PORT"] = "web"
      expect(run_launcher("spec/fixtures/hello.ru")).to eq([1, "", %(nettyrack: invalid $PORT: "web" is not a port (0..65535)\n)])
    end

    it "for a value Java refuses, before loading the app" do
      expect(run_launcher("--max-uri-length", "10", "spec/fixtures/raises.ru"))
        .to eq([1, "", "nettyrack: max URI length must be at least 64 bytes, got 10\n"])
    end

    it "for a value Java refuses, on the terminal before stderr is redirected" do
      Dir.mktmpdir("nettyrack-launcher") do |dir|
        log = File.join(dir, "err.log")
        expect(run_launcher("--redirect-stderr", log, "--max-uri-length", "10", "spec/fixtures/raises.ru"))
          .to eq([1, "", "nettyrack: max URI length must be at least 64 bytes, got 10\n"])
        expect(File.exist?(log)).to be(false)
      end
    end

    it "for a certificate it cannot read, before loading the app" do
      Dir.mktmpdir("nettyrack-launcher") do |dir|
        missing = File.join(dir, "gone.pem")
        status, out, message = run_launcher("-b", "ssl://127.0.0.1:0?cert=#{missing}&key=#{missing}", "spec/fixtures/raises.ru")
        expect([status, out]).to eq([1, ""])
        expect(message).to match(%r{\Anettyrack: https://127\.0\.0\.1:0: .*#{Regexp.escape(missing)}.*\n\z})
      end
    end

    it "for a config file with an unknown setting" do
      Dir.mktmpdir("nettyrack-launcher") do |dir|
        File.write(File.join(dir, "bad.rb"), "threads 1, 2\nthraeds 2\n")
        status, _out, message = run_launcher("-C", File.join(dir, "bad.rb"))
        expect([status, message]).to match([1, a_string_starting_with("nettyrack: #{dir}/bad.rb:2: unknown setting `thraeds'")])
      end
    end

    it "for a rackup file that raises" do
      expect(run_launcher("spec/fixtures/raises.ru")).to eq(
        [1, "", "nettyrack: error loading spec/fixtures/raises.ru: uninitialized constant NoSuchMiddleware " \
                "(NameError) at spec/fixtures/raises.ru:3\n"]
      )
    end

    it "for an access log it cannot open" do
      status, _out, message = run_launcher("--access-log=/nonexistent/dir/access.log", "-b", "tcp://127.0.0.1:0", "spec/fixtures/hello.ru")
      expect([status, message]).to eq([1, "nettyrack: cannot open access log /nonexistent/dir/access.log: No such file or directory\n"])
    end

    it "for a port in use" do
      taken = TCPServer.new("127.0.0.1", 0)
      port = taken.addr[1]
      expect(run_launcher("-b", "tcp://127.0.0.1:#{port}", "spec/fixtures/hello.ru"))
        .to eq([1, "", "nettyrack: 127.0.0.1:#{port} is already in use\n"])
    ensure
      taken&.close
    end

    it "for a control URL it cannot serve" do
      expect(run_launcher("--control-url", "ssl://127.0.0.1:0", "spec/fixtures/hello.ru"))
        .to eq([1, "", "nettyrack: invalid --control-url: ssl:// control URLs are not supported yet " \
                       "(ssl://127.0.0.1:0); use tcp://HOST:PORT or unix:///PATH\n"])
    end

    it "for a control port in use, after closing the app's listener again" do
      taken = TCPServer.new("127.0.0.1", 0)
      port = taken.addr[1]
      expect(run_launcher("-b", "tcp://127.0.0.1:0", "--control-url", "tcp://127.0.0.1:#{port}", "spec/fixtures/hello.ru"))
        .to eq([1, "", "nettyrack: control endpoint: 127.0.0.1:#{port} is already in use\n"])
    ensure
      taken&.close
    end
  end

  describe ".start_directory (where a hot restart starts the command again)" do
    it "is $PWD when it names this directory, so a symlink (a deploy's current) stays a symlink" do
      Dir.mktmpdir("nettyrack-pwd") do |dir|
        release = File.join(dir, "releases", "1")
        FileUtils.mkdir_p(release)
        File.symlink(release, File.join(dir, "current"))
        Dir.chdir(File.join(dir, "current")) do
          expect(described_class.start_directory("PWD" => File.join(dir, "current"))).to eq(File.join(dir, "current"))
          expect(described_class.start_directory("PWD" => dir)).to eq(File.realpath(release)), "a stale $PWD is not trusted"
          expect(described_class.start_directory({})).to eq(File.realpath(release))
        end
      end
    end
  end

  it "in a hot restart's new process, tells the old process why it cannot serve, and exits 1" do
    old = Nettyrack::Server.new(->(_env) { [200, {}, ["old"]] }, host: "127.0.0.1", port: 0, errors: StringIO.new).start
    handoff = old.handoff
    env.merge!("NETTYRACK_HANDOFF" => handoff.socket, "NETTYRACK_HANDOFF_FDS" => handoff.count.to_s)
    missing = File.join(Dir.pwd, "spec/fixtures/missing.ru")
    expect(run_launcher("-b", old.urls.first.sub("http://", "tcp://"), missing))
      .to eq([1, "", "nettyrack: no such file: #{missing} (in #{Dir.pwd})\n"])
    failure = expect { handoff.outcome.get(10, java.util.concurrent.TimeUnit::SECONDS) }
    failure.to raise_error(java.util.concurrent.ExecutionException, /no such file: #{Regexp.escape(missing)}/)
    expect(Net::HTTP.get(URI(old.urls.first))).to eq("old"), "the old server serves on"
  ensure
    handoff&.close
    old&.stop
  end
end
