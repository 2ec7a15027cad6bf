# frozen_string_literal: true

require "nettyrack/boot_line"

RSpec.describe Nettyrack::BootLine do
  it "says version, JRuby, Java, threads and every URL, on one line" do
    configuration = Nettyrack::Configuration.merge({ threads: [2, 12] })
    server = instance_double(Nettyrack::Server, configuration: configuration, pubsub: Object.new, tls_engine: nil, metrics_url: nil,
                                                urls: ["http://0.0.0.0:9292", "http://[::1]:9293"])
    expect(described_class.for(server)).to eq(
      "nettyrack #{Nettyrack::VERSION} (JRuby #{JRUBY_VERSION}, Java #{ENV_JAVA['java.specification.version']}, " \
      "12 threads) listening on http://0.0.0.0:9292, http://[::1]:9293"
    )
  end

  it "says when connections must open with a PROXY protocol header" do
    configuration = Nettyrack::Configuration.merge({ threads: [1, 4], proxy_protocol: true })
    server = instance_double(Nettyrack::Server, configuration: configuration, pubsub: Object.new, tls_engine: nil, metrics_url: nil,
                                                urls: ["http://0.0.0.0:80"])
    expect(described_class.for(server)).to end_with("4 threads, PROXY protocol) listening on http://0.0.0.0:80")
  end

  it "names the memory profile bin/nettyrack started the JVM with" do
    allow(Nettyrack::JvmTuning).to receive(:profile).and_return("memory profile small (512 MB container)")
    configuration = Nettyrack::Configuration.merge({ threads: [1, 4] })
    server = instance_double(Nettyrack::Server, configuration: configuration, pubsub: Object.new, tls_engine: nil, metrics_url: nil,
                                                urls: ["http://0.0.0.0:80"])
    expect(described_class.for(server)).to end_with("4 threads, memory profile small (512 MB container)) listening on http://0.0.0.0:80")
  end

  it "names the public directory when there is one" do
    configuration = Nettyrack::Configuration.merge({ threads: [1, 4], public_dir: "/srv/app/public" })
    server = instance_double(Nettyrack::Server, configuration: configuration, pubsub: Object.new, tls_engine: nil, metrics_url: nil,
                                                urls: ["http://0.0.0.0:80"])
    expect(described_class.for(server)).to end_with("4 threads, public files from /srv/app/public) listening on http://0.0.0.0:80")
  end

  it "names the Redis engine pub/sub goes through, hiding its password" do
    configuration = Nettyrack::Configuration.merge({ threads: [1, 4] })
    engine = double("RedisPubSub", url: "redis://:***@10.0.0.5:6379/2")
    server = instance_double(Nettyrack::Server, configuration: configuration, pubsub: engine, tls_engine: nil, metrics_url: nil, urls: ["http://0.0.0.0:80"])
    expect(described_class.for(server)).to end_with("4 threads, pub/sub redis://:***@10.0.0.5:6379/2) listening on http://0.0.0.0:80")
  end

  it "says the push history's limits when one is kept" do
    configuration = Nettyrack::Configuration.merge({ threads: [1, 4] })
    history = Java::OrgNettyrackCorePush::HistoryLimits.new(100, 300_000, 10)
    engine = double("RedisPubSub", url: "redis://10.0.0.5:6379", history: history)
    server = instance_double(Nettyrack::Server, configuration: configuration, pubsub: engine, tls_engine: nil, metrics_url: nil, urls: ["http://0.0.0.0:80"])
    expect(described_class.for(server))
      .to end_with("4 threads, pub/sub redis://10.0.0.5:6379, push history 100 messages/300.0 s) listening on http://0.0.0.0:80")
  end

  it "names what serves TLS when there are ssl:// listeners" do
    configuration = Nettyrack::Configuration.merge({ threads: [1, 4] })
    server = instance_double(Nettyrack::Server, configuration: configuration, pubsub: Object.new,
                                                tls_engine: "OpenSSL (BoringSSL)", metrics_url: nil, urls: ["https://0.0.0.0:443"])
    expect(described_class.for(server)).to end_with("4 threads, TLS by OpenSSL (BoringSSL)) listening on https://0.0.0.0:443")
  end

  describe ".lines" do
    let(:configuration) { Nettyrack::Configuration.merge({ threads: [1, 4] }) }

    def server(token)
      instance_double(Nettyrack::Server, configuration: configuration, pubsub: Object.new, tls_engine: nil, metrics_url: nil, urls: ["http://0.0.0.0:80"],
                                         control_url: token && "tcp://127.0.0.1:9293", control_token: token)
    end

    it "adds the control endpoint's line when there is one" do
      lines = described_class.lines(server(Nettyrack::Control::Token.new("abc", true)))
      expect(lines.size).to eq(2)
      expect(lines.last).to eq("nettyrack: control endpoint on tcp://127.0.0.1:9293 (token abc)")
      expect(described_class.lines(server(nil)).size).to eq(1)
    end

    it "keeps quiet, except about a made-up token nothing else could tell" do
      expect(described_class.lines(server(Nettyrack::Control::Token.new("abc", true)), quiet: true))
        .to eq(["nettyrack: control endpoint on tcp://127.0.0.1:9293 (token abc)"])
      expect(described_class.lines(server(Nettyrack::Control::Token.new("s3cret", false)), quiet: true)).to eq([])
    end

    it "gives the same lines as events, for a JSON server log: boot with the URLs and the pid, then control" do
      entries = described_class.entries(server(Nettyrack::Control::Token.new("abc", true)))
      expect(entries.map { |_, event, _| event }).to eq(%w[boot control])
      expect(entries.map(&:first)).to eq(described_class.lines(server(Nettyrack::Control::Token.new("abc", true))))
      expect(entries.first.last).to eq(urls: ["http://0.0.0.0:80"], pid: Process.pid)
    end
  end
end
