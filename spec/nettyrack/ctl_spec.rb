# frozen_string_literal: true

require "json"
require "socket"
require "stringio"
require "fileutils"
require "tmpdir"
require "nettyrack/ctl"

# nettyrack ctl in this process, against a real server's control endpoint in this process.
RSpec.describe Nettyrack::Ctl do
  let(:app) { ->(_env) { [200, { "content-type" => "text/plain" }, ["ok"]] } }
  # [exit status, stdout, stderr]
  def ctl(*argv, env: {})
    out = StringIO.new
    err = StringIO.new
    status = described_class.new(argv, env: env, out: out, err: err).run
    [status, out.string, err.string]
  end

  def with_control(control_url: "tcp://127.0.0.1:0", **options)
    server = Nettyrack::Server.new(app, host: "127.0.0.1", port: 0, threads: [1, 2], errors: StringIO.new,
                                        control_url: control_url, **options).start
    yield server, server.control_url
  ensure
    server&.stop
  end

  it "prints stats as pretty JSON" do
    with_control do |server, url|
      status, printed, = ctl("--control-url", url, "--control-token", server.control_token.value, "stats")
      expect(status).to eq(0)
      expect(printed).to start_with("{\n  \"uptime\": ")
      expect(JSON.parse(printed)["workers"]["max"]).to eq(2)
    end
  end

  it "prints thread backtraces, Ruby ones among them" do
    with_control(control_token: "s3cret") do |_server, url|
      status, printed, = ctl("thread-backtraces", env: { "NETTYRACK_CONTROL_URL" => url, "NETTYRACK_CONTROL_TOKEN" => "s3cret" })
      expect(status).to eq(0)
      dump = JSON.parse(printed)
      expect(dump["ruby_backtraces"]).to eq("included")
      this_thread = dump["threads"].find { |thread| thread["ruby"]&.any? { |line| line.include?("ctl_spec.rb") } }
      expect(this_thread).not_to be_nil, "the spec's own thread, waiting for the answer, with its Ruby backtrace"
    end
  end

  # Orders#await has no timeout: it waits in a thread of its own, for at most 10 s.
  def next_order(server)
    order = Deadline.value(Thread.new { server.orders.await }, 10, "the server's next order")
    [order.kind.name, order.reason]
  end

  it "asks for a stop, which the server's Orders pass on" do
    with_control(control_token: :none) do |server, url|
      expect(ctl("--control-url", url, "stop")).to eq([0, "stop requested\n", ""])
      expect(next_order(server)).to eq(["STOP", "control /stop"])
    end
  end

  it "asks for a hot restart, which the server's Orders pass on, and with --wait 0 does not wait for it" do
    with_control(control_token: :none) do |server, url|
      expect(ctl("--control-url", url, "--wait", "0", "restart")).to eq([0, "restart requested (pid #{Process.pid})\n", ""])
      expect(next_order(server)).to eq(["RESTART", "control /restart"])
      expect(server.lifecycle.restart).to eq("requested")
    end
  end

  it "asks for a reload, which the server's Orders pass on, and says no while one is under way" do
    with_control(control_token: :none) do |server, url|
      expect(ctl("--control-url", url, "--wait", "0", "reload-app")).to eq([0, "reload requested\n", ""])
      expect(next_order(server)).to eq(["RELOAD", "control /reload-app"])
      expect(server.lifecycle.reload).to eq("requested")
      expect(ctl("--control-url", url, "reload-app"))
        .to eq([1, "", "nettyrack ctl: a reload is under way already (requested) (409)\n"])
    end
  end

  it "talks to a control endpoint on a unix socket: stats, a wrong token, stop" do
    Dir.mktmpdir("nettyrack-ctl") do |dir|
      url = "unix://#{dir}/ctl.sock"
      with_control(control_url: url, control_token: "s3cret") do |server, bound|
        expect(bound).to eq(url)
        status, printed, = ctl("--control-url", url, "--control-token", "s3cret", "stats")
        expect([status, JSON.parse(printed)["workers"]["max"]]).to eq([0, 2])
        expect(ctl("--control-url", url, "--control-token", "wrong", "stats")[2])
          .to start_with("nettyrack ctl: the control endpoint at #{url} refused the token (403)")
        expect(ctl("--control-url", url, "--control-token", "s3cret", "stop")).to eq([0, "stop requested\n", ""])
        expect(next_order(server)).to eq(["STOP", "control /stop"])
      end
      expect(ctl("--control-url", url, "stats"))
        .to eq([1, "", "nettyrack ctl: cannot reach the control endpoint at #{url}: No such file or directory " \
                       "(is the server running with --control-url #{url}?)\n"])
    end
  end

  it "reads the URL and token from the server's config file, flags and environment winning over it" do
    with_control(control_token: "from-file") do |_server, url|
      Dir.mktmpdir("nettyrack-ctl") do |dir|
        config = File.join(dir, "nettyrack.rb")
        File.write(config, %(control_url "#{url}"\ncontrol_token "from-file"\n))
        expect(ctl("-C", config, "stats").first).to eq(0)
        status, _, message = ctl("-C", config, "stats", env: { "NETTYRACK_CONTROL_TOKEN" => "from-env" })
        expect([status, message]).to match([1, /refused the token \(403\)/])
        expect(ctl("-C", config, "--control-token", "from-file", "stats", env: { "NETTYRACK_CONTROL_TOKEN" => "x" }).first).to eq(0)
      end
    end
  end

  it "reads the URL and token from the server's state file (-S, or the config file's state_path), as pumactl -S does" do
    with_control(control_token: "in-state") do |server, url|
      Dir.mktmpdir("nettyrack-ctl") do |dir|
        state = File.join(dir, "puma.state")
        Nettyrack::StateFile.new(state).write(control_url: url, token: server.control_token.value)
        expect(ctl("-S", state, "stats").first).to eq(0)
        config = File.join(dir, "puma.rb")
        File.write(config, %(state_path "#{state}"\nworkers 2\n))
        status, printed, = ctl("-C", config, "stats")
        expect([status, JSON.parse(printed)["workers"]["max"]]).to eq([0, 2])
        Dir.chdir(dir) do
          FileUtils.mkdir_p("config")
          File.write("config/puma.rb", %(state_path "puma.state"\n))
          expect(ctl("stats").first).to eq(0), "config/puma.rb found as the server finds it"
        end
      end
    end
  end

  describe "trouble: one line on stderr, status 1" do
    it "for a state file that is missing, not one, or names no control URL" do
      Dir.mktmpdir("nettyrack-ctl") do |dir|
        state = File.join(dir, "puma.state")
        expect(ctl("-S", state, "stats")).to eq([1, "", "nettyrack ctl: cannot read state file #{state}: No such file or directory\n"])
        File.write(state, "hello")
        expect(ctl("-S", state, "stats")).to eq([1, "", "nettyrack ctl: #{state} is not a state file (no pid in it)\n"])
        Nettyrack::StateFile.new(state).write(control_url: nil, token: nil)
        expect(ctl("-S", state, "stats")[2]).to eq("nettyrack ctl: #{state} names no control URL: the server runs without " \
                                                   "activate_control_app / --control-url\n")
      end
    end

    it "for a wrong token" do
      with_control do |_server, url|
        status, printed, message = ctl("--control-url", url, "--control-token", "guess", "stats")
        expect([status, printed]).to eq([1, ""])
        expect(message).to eq("nettyrack ctl: the control endpoint at #{url} refused the token (403); pass the token " \
                              "the server printed at boot with --control-token or $NETTYRACK_CONTROL_TOKEN\n")
      end
    end

    it "for a server that is not there" do
      port = TCPServer.open("127.0.0.1", 0) { |free| free.addr[1] }
      expect(ctl("--control-url", "tcp://127.0.0.1:#{port}", "stats"))
        .to eq([1, "", "nettyrack ctl: cannot reach the control endpoint at tcp://127.0.0.1:#{port}: Connection refused " \
                       "(is the server running with --control-url tcp://127.0.0.1:#{port}?)\n"])
    end

    it "without a URL, or a command, or with an unknown one" do
      expect(ctl("stats")[2]).to start_with("nettyrack ctl: no control URL: pass --control-url tcp://HOST:PORT")
      expect(ctl[2]).to eq("nettyrack ctl: which command? stats, thread-backtraces, stop, restart, reload-app " \
                           "(see nettyrack ctl --help)\n")
      expect(ctl("reload")).to eq([1, "", "nettyrack ctl: unknown command reload " \
                                          "(use stats, thread-backtraces, stop, restart, reload-app)\n"])
      expect(ctl("--wait", "soon", "restart")[2]).to eq("nettyrack ctl: invalid --wait: \"soon\" is not a duration " \
                                                       "(use seconds, or 500ms, 30s, 2m)\n")
    end

    it "for a control URL it cannot use" do
      expect(ctl("stats", env: { "NETTYRACK_CONTROL_URL" => "ssl://127.0.0.1:1" }))
        .to eq([1, "", "nettyrack ctl: invalid $NETTYRACK_CONTROL_URL: ssl:// control URLs are not supported yet " \
                       "(ssl://127.0.0.1:1); use tcp://HOST:PORT or unix:///PATH\n"])
    end
  end

  it "explains itself with --help" do
    status, printed, = ctl("--help")
    expect(status).to eq(0)
    expect(printed).to include("Usage: nettyrack ctl [options] stats|thread-backtraces|stop", "--control-url", "--control-token", "-C")
  end
end
