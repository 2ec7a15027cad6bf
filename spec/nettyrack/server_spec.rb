# frozen_string_literal: true

require "json"
require "socket"
require "stringio"
require "time"

RSpec.describe Nettyrack::Server do
  let(:app) do
    lambda do |env|
      raise ArgumentError, "secret detail" if env["PATH_INFO"] == "/boom"

      [200, { "content-type" => "text/plain" }, ["#{env['REQUEST_METHOD']} #{env['PATH_INFO']} #{env['rack.input'].read.bytesize}"]]
    end
  end

  def serving(**options)
    server = described_class.new(app, host: "127.0.0.1", port: 0, threads: [1, 2], errors: StringIO.new, **options).start
    yield server
  ensure
    server&.stop
  end

  it "serves the app on the port it was given, and stops" do
    server = described_class.new(app, host: "127.0.0.1", port: 0, threads: [1, 2]).start
    begin
      expect(server.urls).to eq(["http://127.0.0.1:#{server.port}"])
      expect(server.port).to be > 0
      expect(fetch("#{server.urls.first}/hello").body).to eq("GET /hello 0")
      expect(server.running?).to be(true)
      expect(%w[epoll nio]).to include(server.transport)
    ensure
      expect(server.stop).to be(true)
    end
    expect(server.running?).to be(false)
    expect { TCPSocket.new("127.0.0.1", server.port).close }.to raise_error(Errno::ECONNREFUSED)
  end

  it "listens on every bind, given as URIs or pairs" do
    server = described_class.new(app, binds: ["tcp://127.0.0.1:0", ["127.0.0.1", 0]]).start
    begin
      expect(server.urls.size).to eq(2)
      expect(server.urls.map { |url| fetch("#{url}/x").code }).to eq(%w[200 200])
    ensure
      server.stop
    end
  end

  it "reads its keywords as the CLI does" do
    server = described_class.new(app, port: "0", threads: "2:4", max_body_size: "1k", header_timeout: "500ms")
    expect(server.configuration.threads).to eq([2, 4])
    expect(server.configuration.limits.values_at(:max_body_size, :header_timeout)).to eq([1024, 0.5])
    expect(server.configuration.binds).to eq([Nettyrack::Bind.tcp("0.0.0.0", 0)])
  end

  it "reads http2 as true or false, on by default, and names it when neither" do
    expect([nil, false, "no", true].map { |value| described_class.new(app, port: 0, http2: value).configuration.http2? })
      .to eq([true, false, false, true])
    expect { described_class.new(app, http2: :h2c) }
      .to raise_error(Nettyrack::ConfigError, "invalid http2: :h2c is not true or false")
  end

  it "reads proxy_protocol as true or false, off by default, and names it when neither" do
    expect([nil, true, "yes", "false"].map { |value| described_class.new(app, port: 0, proxy_protocol: value).configuration.proxy_protocol? })
      .to eq([false, true, true, false])
    expect { described_class.new(app, proxy_protocol: :v1) }
      .to raise_error(Nettyrack::ConfigError, "invalid proxy_protocol: :v1 is not true or false")
  end

  it "applies the limits it is given" do
    serving(max_body_size: "1k") do |server|
      expect(post("#{server.urls.first}/up", "x" * 1024).body).to eq("POST /up 1024")
      expect(post("#{server.urls.first}/up", "x" * 1025).code).to eq("413")
    end
  end

  it "shows exception details in 500 bodies in development only" do
    serving(development: true) { |server| expect(fetch("#{server.urls.first}/boom").body).to include("secret detail") }
    serving(development: false) do |server|
      response = fetch("#{server.urls.first}/boom")
      expect([response.code, response.body.include?("secret detail")]).to eq(["500", false])
    end
  end

  it "writes one access log line per request to an IO" do
    log = StringIO.new
    serving(access_log: log) { |server| fetch("#{server.urls.first}/logged") }
    expect(log.string).to match(%r{\A127\.0\.0\.1 - - \[.+\] "GET /logged HTTP/1\.1" 200 13( [\d.]+)?\n\z})
  end

  it "writes JSON access log lines when asked to" do
    log = StringIO.new
    serving(access_log: log, access_log_format: "json") { |server| fetch("#{server.urls.first}/logged?a=%22") }
    line = JSON.parse(log.string)
    expect(line.slice("remote", "method", "target", "protocol", "status", "bytes", "user_agent", "referer"))
      .to eq("remote" => "127.0.0.1", "method" => "GET", "target" => "/logged?a=%22", "protocol" => "HTTP/1.1",
             "status" => 200, "bytes" => 13, "user_agent" => "Ruby", "referer" => nil)
    expect(line["duration"]).to be_a(Float)
    expect(Time.iso8601(line["time"])).to be_within(60).of(Time.now)
  end

  describe "control endpoint" do
    def control_get(server, path, token: server.control_token.value)
      uri = URI("http://#{server.control_url.delete_prefix('tcp://')}#{path}")
      Net::HTTP.start(uri.host, uri.port, open_timeout: 5, read_timeout: 10) do |http|
        http.get(uri.request_uri, token ? { "authorization" => "Bearer #{token}" } : {})
      end
    end

    it "listens where control_url says, with a made-up token unless given one" do
      serving(control_url: "tcp://127.0.0.1:0") do |server|
        expect(server.control_url).to match(%r{\Atcp://127\.0\.0\.1:\d+\z})
        expect([server.control_token.value, server.control_token.generated?]).to match([/\A\h{32}\z/, true])
        stats = JSON.parse(control_get(server, "/stats").body)
        expect(stats.keys).to eq(%w[uptime process connections requests workers push pubsub heap])
        expect(stats["workers"]["max"]).to eq(2)
        expect(control_get(server, "/stats", token: "guess").code).to eq("403")
      end
    end

    it "takes a configured token, or none at all" do
      serving(control_url: "tcp://127.0.0.1:0", control_token: "s3cret") do |server|
        expect(server.control_token.to_a).to eq(["s3cret", false])
        expect(control_get(server, "/stats?token=s3cret", token: nil).code).to eq("200")
      end
      serving(control_url: "tcp://127.0.0.1:0", control_token: :none) do |server|
        expect(control_get(server, "/stats", token: nil).code).to eq("200")
      end
    end

    it "has none without control_url" do
      serving { |server| expect([server.control_url, server.control_token]).to eq([nil, nil]) }
    end

    it "raises BindError naming the control address in use" do
      taken = TCPServer.new("127.0.0.1", 0)
      port = taken.addr[1]
      expect { described_class.new(app, host: "127.0.0.1", port: 0, control_url: "tcp://127.0.0.1:#{port}").start }
        .to raise_error(Nettyrack::BindError, "control endpoint: 127.0.0.1:#{port} is already in use")
    ensure
      taken&.close
    end
  end

  describe "given a ServerSetup (as the launcher hands down)" do
    let(:setup) do
      Nettyrack::ServerSetup.new(Nettyrack::Configuration.from_keywords(host: "127.0.0.1", port: 0, threads: [1, 2]),
                                 errors: StringIO.new)
    end

    it "runs with its Configuration and ServerConfig: reads, merges and builds nothing again" do
      setup # made before the spies
      %i[merge keyword_layer from_keywords].each { |name| allow(Nettyrack::Configuration).to receive(name).and_call_original }
      allow(Java::OrgNettyrackCoreConfig::ServerConfig).to receive(:builder).and_call_original # once per JavaConfig.build
      server = described_class.new(app, setup).start
      begin
        expect(fetch("#{server.urls.first}/set").body).to eq("GET /set 0")
        expect([server.configuration, server.control_token]).to match([be(setup.configuration), nil])
      ensure
        server.stop
      end
      %i[merge keyword_layer from_keywords].each { |name| expect(Nettyrack::Configuration).not_to have_received(name) }
      expect(Java::OrgNettyrackCoreConfig::ServerConfig).not_to have_received(:builder)
    end

    it "takes no settings beside it" do
      expect { described_class.new(app, setup, port: 0, threads: 4) }
        .to raise_error(ArgumentError, "settings come from the ServerSetup given: port, threads")
    end
  end

  it "refuses a keyword it does not know" do
    expect { described_class.new(app, workers: 2, forks: 1) }.to raise_error(ArgumentError, "unknown keywords: workers, forks")
  end

  it "names the keyword whose value it cannot read" do
    expect { described_class.new(app, max_body_size: "lots") }
      .to raise_error(Nettyrack::ConfigError, /\Ainvalid max_body_size: "lots" is not a size/)
  end

  it "refuses a bad value before binding anything" do
    expect { described_class.new(app, max_headers: 0) }.to raise_error(Nettyrack::ConfigError, "max headers must be 1 or more, got 0")
  end

  it "raises BindError naming an address in use" do
    taken = TCPServer.new("127.0.0.1", 0)
    port = taken.addr[1]
    expect { described_class.new(app, host: "127.0.0.1", port: port).start }
      .to raise_error(Nettyrack::BindError, "127.0.0.1:#{port} is already in use")
  ensure
    taken&.close
  end
end
