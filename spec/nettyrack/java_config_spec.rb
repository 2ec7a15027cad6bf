# frozen_string_literal: true

require "stringio"

RSpec.describe Nettyrack::JavaConfig do
  # settings: a settings layer over these listeners and threads.
  def build(access_log: nil, control_token: nil, **settings)
    config = Nettyrack::Configuration.merge({ binds: [Nettyrack::Bind.tcp("127.0.0.1", 0)], threads: [2, 8] }, settings)
    described_class.build(config, access_log: access_log, control_token: control_token)
  end

  it "fills every builder setting from the Ruby names" do
    config = build(binds: [Nettyrack::Bind.tcp("127.0.0.1", 0), Nettyrack::Bind.tcp("::1", 8080)], threads: [3, 9], max_body_size: 5_000_000_000,
                   max_header_size: 32_768, max_uri_length: 4096, max_headers: 50, body_buffer: 1024, max_discard_size: 2048,
                   header_timeout: 1.5, keep_alive_timeout: 20, write_timeout: 0.25, shutdown_timeout: 0,
                   queue_size: 7, io_threads: 3)
    expect(config.listen.binds.map { |bind| [bind.host, bind.port] }).to eq([["127.0.0.1", 0], ["::1", 8080]])
    expect([config.workers.minThreads, config.workers.maxThreads, config.workers.queueSize, config.workers.ioThreads]).to eq([3, 9, 7, 3])
    expect([config.limits.maxBodySize, config.limits.maxHeaderSize, config.limits.maxUriLength, config.limits.maxHeaders, config.limits.bodyBufferSize])
      .to eq([5_000_000_000, 32_768, 4096, 50, 1024])
    expect(config.limits.maxDiscardSize).to eq(2048)
    expect([config.timeouts.headerTimeoutMillis, config.timeouts.keepAliveTimeoutMillis, config.timeouts.writeTimeoutMillis, config.timeouts.shutdownTimeoutMillis])
      .to eq([1500, 20_000, 250, 0])
  end

  it "sends the defaults to Java" do
    config = build
    expect([config.limits.maxBodySize, config.limits.bodyBufferSize, config.limits.maxDiscardSize, config.timeouts.headerTimeoutMillis,
            config.workers.queueSize, config.listen.proxyProtocol])
      .to eq([100 * 1024 * 1024, 128 * 1024, 4 * 1024 * 1024, 30_000, 1024, false])
  end

  it "turns on the PROXY protocol" do
    expect(build(proxy_protocol: true).listen.proxyProtocol).to be(true)
  end

  it "passes the HTTP/2 settings, and Java names the one out of range" do
    config = build(http2: false, max_concurrent_streams: 5, http2_initial_window: 1 << 20)
    expect([config.http2Settings.enabled, config.http2Settings.maxConcurrentStreams, config.http2Settings.initialWindow]).to eq([false, 5, 1 << 20])
    expect { build(max_concurrent_streams: 0) }
      .to raise_error(Nettyrack::ConfigError, "max concurrent streams must be 1 or more, got 0")
    expect { build(http2_initial_window: 100) }
      .to raise_error(Nettyrack::ConfigError, "HTTP/2 initial window must be at least 1024 bytes, got 100")
  end

  it "passes the HTTP/2 reset limit in whole seconds, and Java names the value out of range" do
    config = build(http2_max_resets: 1, http2_reset_window: 1)
    expect([config.http2Settings.maxResets, config.http2Settings.resetWindowMillis]).to eq([1, 1000])
    expect([build.http2Settings.maxResets, build.http2Settings.resetWindowMillis]).to eq([200, 30_000])
    expect { build(http2_max_resets: 0) }
      .to raise_error(Nettyrack::ConfigError, "HTTP/2 max resets must be 1..1000000, got 0")
    expect { build(http2_reset_window: 0.5) }
      .to raise_error(Nettyrack::ConfigError, "HTTP/2 reset window must be whole seconds from 1 to 3600, got 0.5 s")
  end

  it "has no access log unless given one, and writes a Ruby IO through an OutputStream" do
    io = StringIO.new
    expect(build.logs.accessLog).to be_nil
    build(access_log: io).logs.accessLog.write("x".to_java_bytes)
    expect(io.string).to eq("x")
  end

  it "has no control endpoint unless given a URL; a token or none; the access log format" do
    expect(build.controlSettings.control).to be_nil
    expect(build.logs.accessLogFormat.name).to eq("COMMON")
    config = build(control_url: ["127.0.0.1", 9293], control_token: "s3cret", access_log_format: "json")
    control = config.controlSettings.control
    expect([control.host, control.port, control.token, config.logs.accessLogFormat.name])
      .to eq(["127.0.0.1", 9293, "s3cret", "JSON"])
    expect(build(control_url: ["::1", 0], control_token: nil).controlSettings.control.token).to be_nil
  end

  it "traces when OpenTelemetry is there unless --otel off" do
    expect(build.logs.traces).to be(true)
    expect(build(otel: "off").logs.traces).to be(false)
  end

  describe ".fit_to_pools" do
    it "replaces the wait threads the loaded app's pools can use, and every other record stays as built" do
      config = build(threads: [2, 8], wait_threads: 16)
      allow(Nettyrack::PoolCheck).to receive(:wait_threads).with(16, 8).and_return(3)
      fitted = described_class.fit_to_pools(config)
      expect(fitted.workers.to_s).to eq(config.workers.to_s.sub("waitThreads=16", "waitThreads=3"))
      records = %i[listen limits timeouts http2Settings push fileSettings logs controlSettings]
      expect(records.reject { |record| fitted.public_send(record).equal?(config.public_send(record)) }).to eq([])
    end

    it "keeps the ServerConfig when the pools ask for no change" do
      config = build
      allow(Nettyrack::PoolCheck).to receive(:wait_threads).and_return(config.workers.waitThreads)
      expect(described_class.fit_to_pools(config)).to be(config)
    end
  end

  it "turns Java's refusal into a ConfigError with Java's reason" do
    expect { build(max_uri_length: 10) }
      .to raise_error(Nettyrack::ConfigError, "max URI length must be at least 64 bytes, got 10")
    expect { build(header_timeout: 0) }.to raise_error(Nettyrack::ConfigError, "header timeout must be positive")
  end

  it "refuses a value too large for Java, naming its flag" do
    expect { build(max_header_size: 3 * 1024**3) }
      .to raise_error(Nettyrack::ConfigError, "--max-header-size #{3 * 1024**3} is too large")
  end

  # ServerConfig.Builder keeps Java-side fallbacks for embedders that never pass through Ruby;
  # they must say what Configuration::DEFAULTS says.
  it "has Java fallbacks equal to Configuration::DEFAULTS" do
    fallback = Java::OrgNettyrackCoreConfig::ServerConfig.builder.build
    records = %i[listen workers limits timeouts http2Settings push fileSettings logs controlSettings].map { |r| fallback.public_send(r) }
    renamed = { http2InitialWindow: :initialWindow, http2MaxResets: :maxResets, http2ResetWindowMillis: :resetWindowMillis }
    java_value = lambda do |builder|
      field = renamed.fetch(builder, builder)
      records.find { |record| record.respond_to?(field) }.public_send(field)
    end
    Nettyrack::Settings::BUILDER.each do |limit|
      next if limit.name == :wait_threads # computed from the threads, below

      expect(java_value.call(limit.builder)).to eq(limit.to_java(Nettyrack::Configuration::DEFAULTS.fetch(limit.name))),
                                                 limit.name.to_s
    end
    cores = java.lang.Runtime.runtime.available_processors
    expect([fallback.workers.minThreads, fallback.workers.maxThreads]).to eq(Nettyrack::Configuration.default_threads(cores))
    expect(fallback.workers.waitThreads).to eq(Nettyrack::Configuration.default_wait_threads(fallback.workers.maxThreads))
    expect(Java::OrgNettyrackCoreConfig::WorkerSettings.defaultWaitThreads(7)).to eq(Nettyrack::Configuration.default_wait_threads(7))
    expect(fallback.listen.proxyProtocol).to eq(Nettyrack::Configuration::DEFAULTS[:proxy_protocol])
    expect(fallback.http2Settings.enabled).to eq(Nettyrack::Configuration::DEFAULTS[:http2])
  end
end
