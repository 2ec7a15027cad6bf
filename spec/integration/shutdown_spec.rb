# frozen_string_literal: true

require_relative "../jruby/bridge_helper"

# NettyServer#stop, which SIGTERM and SIGINT trigger: stop accepting, finish what is in
# flight within the shutdown timeout, then close.
RSpec.describe "graceful stop" do
  let(:started) { Queue.new }
  let(:release) { Queue.new }
  let(:app) do
    lambda do |_env|
      started << true
      BridgeHelper.take(release, 10)
      [200, { "content-type" => "text/plain" }, ["finished"]]
    end
  end

  it "lets an in-flight request finish, refuses new connections, and closes idle ones" do
    with_app(app, threads: [2, 2]) do |port, _errors, server|
      idle = TCPSocket.new("127.0.0.1", port)
      busy = Thread.new { http_get(port, "/") }
      BridgeHelper.take(started)
      stopping = Thread.new { server.stop }
      Timeout.timeout(5) { Thread.pass while server.running? }
      expect { TCPSocket.new("127.0.0.1", port).close }.to raise_error(Errno::ECONNREFUSED)
      expect(read_all(idle, 5)).to eq(""), "the idle connection was closed without a word"
      release << true
      response = Deadline.value(busy, 20, "the in-flight request")
      expect([response.code, response.body, response["connection"]]).to eq(%w[200 finished close])
      expect(Deadline.value(stopping, 30, "server.stop")).to be(true)
    ensure
      idle&.close
    end
  end

  it "gives up on requests that outlast the shutdown timeout" do
    with_app(app, shutdownTimeoutMillis: 300) do |port, _errors, server|
      Thread.new { http_get(port, "/") rescue nil }
      BridgeHelper.take(started)
      expect(server.stop).to be(false)
      release << true
    end
  end
end

# SIGTERM with real load: the child process nettyrack, 100 keep-alive clients sending as fast
# as they can, and every request they sent answered.
RSpec.describe "SIGTERM under load" do
  it "fails no request of 100 busy keep-alive clients, and exits 0" do
    child = NettyrackProcess.new("-p", "0", "-t", "4:8", "--shutdown-timeout", "20",
                                 File.expand_path("../fixtures/hello.ru", __dir__))
    port = child.stdout_match(/listening on .*:(\d+)/)[1].to_i
    load = KeepAliveLoad.new(port, clients: 100).start
    load.wait_for(3000) # every client is going
    child.signal("TERM")
    result = load.finish(timeout: 40)
    expect(child.wait(timeout: 40).exitstatus).to eq(0)
    expect([result.failed, result.errors]).to eq([0, []])
    expect(result.answered).to be > 3000
    expect(result.refused).to be >= 100 # each client saw connection: close, and then the closed listener
    expect(child.stdout).to include("shutting down (SIGTERM)")
  ensure
    child&.kill
  end
end
