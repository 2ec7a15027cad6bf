# frozen_string_literal: true

require "stringio"
require "tmpdir"

RSpec.describe Nettyrack::ServerSetup do
  def configuration(**keywords)
    Nettyrack::Configuration.from_keywords(host: "127.0.0.1", port: 0, **keywords)
  end

  it "builds the ServerConfig once, from the Configuration given, with the access log and error log" do
    config = configuration(threads: [1, 3], max_body_size: "1k")
    log = StringIO.new
    allow(Java::OrgNettyrackCoreConfig::ServerConfig).to receive(:builder).and_call_original # once per JavaConfig.build
    setup = described_class.new(config, access_log: log, errors: StringIO.new)
    expect(Java::OrgNettyrackCoreConfig::ServerConfig).to have_received(:builder).once
    expect(setup.configuration).to be(config)
    expect([setup.java_config.workers.maxThreads, setup.java_config.limits.maxBodySize]).to eq([3, 1024])
    setup.java_config.logs.accessLog.write("x".to_java_bytes)
    expect(log.string).to eq("x")
  end

  it "runs the control endpoint with a made-up token unless one is configured, or none" do
    made_up = described_class.new(configuration(control_url: "tcp://127.0.0.1:0"))
    expect([made_up.control_token.value, made_up.control_token.generated?]).to match([/\A\h{32}\z/, true])
    expect(made_up.java_config.controlSettings.control.token).to eq(made_up.control_token.value)
    given = described_class.new(configuration(control_url: "tcp://127.0.0.1:0", control_token: "s3cret"))
    expect([given.control_token.to_a, given.java_config.controlSettings.control.token]).to eq([["s3cret", false], "s3cret"])
    none = described_class.new(configuration(control_url: "tcp://127.0.0.1:0", control_token: :none))
    expect([none.control_token.value, none.java_config.controlSettings.control.token]).to eq([nil, nil])
    expect(described_class.new(configuration).control_token).to be_nil
  end

  it "refuses a value Java refuses, as it builds" do
    expect { described_class.new(configuration(max_headers: 0)) }
      .to raise_error(Nettyrack::ConfigError, "max headers must be 1 or more, got 0")
  end

  it "reads the ssl:// listeners' files on #check_tls, naming the listener they fail" do
    Dir.mktmpdir("nettyrack-setup") do |dir|
      missing = File.join(dir, "gone.pem")
      setup = described_class.new(configuration(binds: ["ssl://127.0.0.1:0?cert=#{missing}&key=#{missing}"]))
      expect { setup.check_tls }.to raise_error(Nettyrack::ConfigError, %r{\Ahttps://127\.0\.0\.1:0: .*gone\.pem})
    end
    plain = described_class.new(configuration)
    expect(plain.check_tls).to be(plain)
  end

  it "takes the access log and errors apart from the settings in .from_keywords" do
    errors = StringIO.new
    setup = described_class.from_keywords(errors: errors, host: "127.0.0.1", port: 0, threads: [1, 2])
    expect([setup.errors, setup.configuration.threads, setup.java_config.logs.accessLog]).to eq([errors, [1, 2], nil])
    expect { described_class.from_keywords(workers: 2) }.to raise_error(ArgumentError, "unknown keyword: workers")
  end
end
