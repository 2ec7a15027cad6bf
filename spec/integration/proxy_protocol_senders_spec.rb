# frozen_string_literal: true

require "open3"
require "stringio"
require "timeout"

# --proxy-protocol behind real third-party proxies (spec/support/stream_proxy.rb): Debian's
# nginx (stream module, `proxy_protocol on`, which sends v1) and HAProxy (`send-proxy-v2`, with
# LOCAL for its own health checks), each on 127.0.0.1 in front of a Nettyrack::Server. Clients
# connect to the proxy from 127.0.0.2 or 127.0.0.3 while the proxy reaches nettyrack from
# 127.0.0.1, so REMOTE_ADDR says which address the app was given.
RSpec.describe "PROXY protocol from real proxies" do
  let(:seen) { Queue.new }
  let(:app) do
    lambda do |env|
      seen << [env["PATH_INFO"], env["REMOTE_ADDR"]]
      if env["rack.upgrade?"] == :websocket
        env["rack.upgrade"] = Class.new { def on_open(client) = client.write("REMOTE_ADDR=#{client.env['REMOTE_ADDR']}") }.new
      end
      [200, { "content-type" => "text/plain" }, [env["REMOTE_ADDR"]]]
    end
  end
  let(:access_log) { StringIO.new }

  def serving(&block)
    server = Nettyrack::Server.new(app, host: "127.0.0.1", port: 0, threads: [1, 4], proxy_protocol: true,
                                        errors: StringIO.new, access_log: access_log).start
    block.call(server)
  ensure
    server&.stop
  end

  # Two GETs by curl on one keep-alive connection through the proxy, from +local_host+: each
  # body and whether it opened a connection. (curl: JRuby's Net::HTTP ignores local_host.)
  def two_gets(port, local_host)
    out, status = Open3.capture2e("curl", "-sS", "--max-time", "10", "--interface", local_host, "-w", " %{num_connects}\n",
                                  "http://127.0.0.1:#{port}/one", "http://127.0.0.1:#{port}/two")
    expect(status.exitstatus).to eq(0), out
    out.lines.map(&:split)
  end

  describe "nginx, stream proxy_protocol on (v1)", if: StreamProxy.nginx? do
    it "gives the app the client's address as nginx saw it, on every request and in the WebSocket env" do
      serving do |server|
        proxy = StreamProxy.nginx(server.port)
        begin
          expect(two_gets(proxy.port, "127.0.0.2")).to eq([%w[127.0.0.2 1], %w[127.0.0.2 0]])
          ws = WsClient.open(proxy.port, "/ws", local_host: "127.0.0.2")
          expect(ws.read_message).to eq([:text, "REMOTE_ADDR=127.0.0.2"])
          ws.close
        ensure
          proxy.stop
        end
      end
      expect(access_log.string.lines.map { |line| line[/\A\S+/] }).to eq(%w[127.0.0.2] * 3)
    end
  end

  describe "HAProxy, send-proxy-v2", if: StreamProxy.haproxy? do
    it "gives the app the client's address as HAProxy saw it" do
      serving do |server|
        proxy = StreamProxy.haproxy(server.port)
        begin
          expect(two_gets(proxy.port, "127.0.0.3")).to eq([%w[127.0.0.3 1], %w[127.0.0.3 0]])
        ensure
          proxy.stop
        end
      end
    end

    it "keeps the socket's address for HAProxy's health checks, which it opens with LOCAL" do
      serving do |server|
        proxy = StreamProxy.haproxy(server.port, health_check: "/health")
        begin
          check = Timeout.timeout(20) { loop { (entry = seen.pop)[0] == "/health" and break entry } }
          expect(check).to eq(["/health", "127.0.0.1"])
          expect(two_gets(proxy.port, "127.0.0.3")).to eq([%w[127.0.0.3 1], %w[127.0.0.3 0]])
        ensure
          proxy.stop
        end
      end
    end
  end
end
