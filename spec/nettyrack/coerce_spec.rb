# frozen_string_literal: true

RSpec.describe Nettyrack::Coerce do
  def error_for
    yield
    raise "no error"
  rescue Nettyrack::ConfigError => e
    e.message
  end

  describe ".size" do
    {
      "512" => 512, 512 => 512, "0" => 0, "512b" => 512, "64k" => 65_536, "64K" => 65_536,
      "64kb" => 65_536, "64KiB" => 65_536, "10m" => 10_485_760, "10 MB" => 10_485_760,
      "1g" => 1_073_741_824, " 2k " => 2048
    }.each do |given, bytes|
      it("reads #{given.inspect} as #{bytes} bytes") { expect(described_class.size(given)).to eq(bytes) }
    end

    ["10x", "1.5m", "-1", -1, "", "m", "10 m b"].each do |bad|
      it "refuses #{bad.inspect}, showing what would do" do
        expect(error_for { described_class.size(bad) }).to eq("#{bad.inspect} is not a size (use bytes, or 64k, 10m, 1g)")
      end
    end
  end

  describe ".seconds" do
    { "30" => 30, 30 => 30, 1.5 => 1.5, "1.5" => 1.5, "500ms" => 0.5, "30s" => 30, "2m" => 120, "0" => 0 }
      .each do |given, seconds|
        it("reads #{given.inspect} as #{seconds} s") { expect(described_class.seconds(given)).to eq(seconds) }
      end

    ["soon", "-1", -1, "1h", ""].each do |bad|
      it "refuses #{bad.inspect}" do
        expect(error_for { described_class.seconds(bad) }).to include("is not a duration (use seconds, or 500ms, 30s, 2m)")
      end
    end
  end

  describe ".otel" do
    it("reads auto and off, as words, symbols or false") do
      expect([described_class.otel("auto"), described_class.otel(:off), described_class.otel(" OFF "), described_class.otel(false)])
        .to eq(%w[auto off off off])
    end
    it("refuses anything else") { expect(error_for { described_class.otel("on") }).to eq('"on" is not an otel mode (use auto or off)') }
  end

  describe ".count" do
    it("reads whole numbers") { expect([described_class.count("100"), described_class.count(0)]).to eq([100, 0]) }

    ["1.5", "-3", -3, "ten", ""].each do |bad|
      it("refuses #{bad.inspect}") { expect(error_for { described_class.count(bad) }).to include("is not a whole number") }
    end
  end

  describe ".port" do
    it("reads 0..65535") { expect([0, "9292", 65_535].map { |p| described_class.port(p) }).to eq([0, 9292, 65_535]) }

    ["65536", "-1", "http", "", nil].each do |bad|
      it("refuses #{bad.inspect}") { expect(error_for { described_class.port(bad) }).to eq("#{bad.inspect} is not a port (0..65535)") }
    end
  end

  describe ".threads" do
    {
      "4:16" => [4, 16], "16" => [nil, 16], 16 => [nil, 16], [2, 8] => [2, 8], [nil, 8] => [nil, 8],
      "0:4" => [0, 4], "8:8" => [8, 8]
    }.each do |given, pair|
      it("reads #{given.inspect} as #{pair.inspect}") { expect(described_class.threads(given)).to eq(pair) }
    end

    ["4:", ":4", "a:b", "1:2:3", "", "four"].each do |bad|
      it "refuses #{bad.inspect}" do
        expect(error_for { described_class.threads(bad) }).to eq("#{bad.inspect} is not a thread count (use MIN:MAX or MAX)")
      end
    end

    it "refuses a minimum above the maximum" do
      expect(error_for { described_class.threads("16:4") }).to eq("the minimum threads (16) exceed the maximum (4)")
    end

    it "refuses a maximum of 0" do
      expect(error_for { described_class.threads("0") }).to eq("0 is not a thread count (at least 1 is needed)")
    end
  end

  describe ".bind" do
    {
      "tcp://0.0.0.0:9292" => ["0.0.0.0", 9292], "tcp://localhost:0" => ["localhost", 0],
      "tcp://[::1]:3000" => ["::1", 3000], "tcp://[::]:80" => ["::", 80]
    }.each do |uri, (host, port)|
      it("reads #{uri}") { expect(described_class.bind(uri)).to eq(Nettyrack::Bind.tcp(host, port)) }
    end

    it "reads unix:///path with its params" do
      expect(described_class.bind("unix:///run/app.sock?mode=0660").to_h)
        .to eq(scheme: "unix", host: nil, port: nil, path: "/run/app.sock", params: { "mode" => "0660" })
    end

    it "reads ssl:// with its params" do
      expect(described_class.bind("ssl://127.0.0.1:9443?cert=a.pem&key=a.key"))
        .to eq(Nettyrack::Bind.new("ssl", "127.0.0.1", 9443, nil, { "cert" => "a.pem", "key" => "a.key" }))
    end

    ["0.0.0.0:9292", "tcp://0.0.0.0", "tcp://:9292", "http://x:1", "tcp://x:99999", "tcp://::1:80"].each do |bad|
      it "refuses #{bad}" do
        expect(error_for { described_class.bind(bad) }).to match(/is not (a bind address \(use tcp:\/\/HOST:PORT, ssl:.* or unix:\/\/\/PATH\)|a port)/)
      end
    end
  end

  describe ".boolean" do
    it "reads true and false as rackup's -O strings too" do
      expect([true, "yes", "1", "on", false, "no", "0", "off", nil].map { |v| described_class.boolean(v) })
        .to eq([true, true, true, true, false, false, false, false, false])
    end

    it("refuses anything else") { expect(error_for { described_class.boolean("maybe") }).to eq('"maybe" is not true or false') }
  end
end
