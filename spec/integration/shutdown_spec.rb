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
      response = busy.value
      expect([response.code, response.body, response["connection"]]).to eq(%w[200 finished close])
      expect(stopping.value).to be(true)
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
