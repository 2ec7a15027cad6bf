# frozen_string_literal: true

require "nettyrack/bind"

RSpec.describe Nettyrack::Bind do
  def parse(uri) = described_class.parse(uri) { |text| Integer(text, 10) }

  def error_for(uri)
    parse(uri)
    nil
  rescue Nettyrack::ConfigError => e
    e.message
  end

  it "reads tcp, ssl and unix URIs with their params" do
    expect(parse("tcp://[::1]:3000")).to eq(described_class.tcp("::1", 3000))
    expect(parse("ssl://0.0.0.0:9443?cert=server.pem&key=server.key").to_h)
      .to eq(scheme: "ssl", host: "0.0.0.0", port: 9443, path: nil, params: { "cert" => "server.pem", "key" => "server.key" })
    expect(parse("unix:///run/app.sock?mode=0660").to_h)
      .to eq(scheme: "unix", host: nil, port: nil, path: "/run/app.sock", params: { "mode" => "0660" })
    expect(parse("unix://tmp/app.sock").path).to eq("tmp/app.sock")
  end

  it "decodes escaped params" do
    expect(parse("ssl://h:1?keystore=a%20b.p12&keystore-pass=p%26w").params)
      .to eq("keystore" => "a b.p12", "keystore-pass" => "p&w")
  end

  it "writes itself back as a URI" do
    ["tcp://[::1]:3000", "ssl://0.0.0.0:9443?cert=server.pem&key=server.key", "unix:///run/app.sock?mode=0660"]
      .each { |uri| expect(parse(uri).to_s).to eq(uri) }
  end

  it "refuses params its scheme does not know, and params given twice" do
    expect(error_for("unix:///s?cert=x")).to eq('unix:///s?cert=x: unix:// binds take no "cert" (known: mode, backlog)')
    expect(error_for("tcp://h:1?mode=1")).to eq('tcp://h:1?mode=1: tcp:// binds take no "mode" (no parameters)')
    expect(error_for("unix:///s?mode=1&mode=2")).to eq('unix:///s?mode=1&mode=2: "mode" is given twice')
  end

  it "reads a unix socket's mode as octal permissions and its backlog as a count" do
    expect(parse("unix:///s?mode=660&backlog=65535").params).to eq("mode" => "660", "backlog" => "65535")
    expect(error_for("unix:///s?mode=0668")).to eq('unix:///s?mode=0668: mode must be octal permissions such as 0660, got "0668"')
    expect(error_for("unix:///s?mode=u+rw")).to eq('unix:///s?mode=u+rw: mode must be octal permissions such as 0660, got "u rw"')
    expect(error_for("unix:///s?backlog=0")).to eq('unix:///s?backlog=0: backlog must be a count of 1..65535, got "0"')
    expect(error_for("unix:///s?backlog=65536")).to eq('unix:///s?backlog=65536: backlog must be a count of 1..65535, got "65536"')
  end

  it "refuses URIs without a scheme it serves, an address or a path" do
    expect(error_for("http://h:1")).to eq('"http://h:1" is not a bind address (use tcp://HOST:PORT, ssl://HOST:PORT?cert=FILE&key=FILE or unix:///PATH)')
    expect(error_for("h:1")).to eq('"h:1" is not a bind address (use tcp://HOST:PORT, ssl://HOST:PORT?cert=FILE&key=FILE or unix:///PATH)')
    expect(error_for("ssl://h")).to eq('"ssl://h" is not a bind address (use tcp://HOST:PORT, ssl://HOST:PORT?cert=FILE&key=FILE or unix:///PATH)')
    expect(error_for("unix://?mode=1")).to eq('"unix://?mode=1" names no socket path (use unix:///path/to/app.sock)')
  end
end
